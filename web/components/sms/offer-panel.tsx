import type { SmsOfferResponse } from "../../../schema/sms";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { Spinner } from "../ui/spinner";
import { areasError, betterText, recordText, surchargeText, type ChoiceFields } from "./offer-words";

/**
 * The chosen offer beside the Buy button (issue 49), loaded with the card's first chosen service (its own chunk: the
 * dashboard's first load is unchanged): its own record, a one-tap better route within the cap, and the number choice
 * where an upstream of the route documents one: "Carrier" and "Area code" (DaisySMS), "Operator" (the SMS-Activate
 * protocol), each with the price change said before the click. Where nothing is documented the fields are absent.
 */
export default function OfferPanel({
  offer,
  pending,
  error,
  fields,
  onFields,
  onBetter,
}: {
  offer: SmsOfferResponse | undefined;
  pending: boolean;
  /** The server's refusal of the current choice (it cannot be honoured: nothing would be charged). */
  error: string | null;
  fields: ChoiceFields;
  onFields: (next: ChoiceFields) => void;
  onBetter: (better: NonNullable<SmsOfferResponse["better"]>) => void;
}) {
  const choices = offer?.choices;
  const surcharge = offer ? surchargeText(offer) : null;
  const areasInvalid = choices?.areas ? areasError(fields.areas, choices.areas.max) : undefined;
  const percent = (p: number) => (p > 0 ? ` Adds ${p}% to the price (the provider's own charge).` : " No extra charge.");
  return (
    <div className="flex flex-col gap-3" data-testid="sms-offer">
      <p className="text-xs text-slate-700 dark:text-slate-200" data-testid="sms-offer-record">
        {offer ? recordText(offer.record, offer.min_sample, offer.window_days) : pending ? <Spinner className="h-4 w-4 text-blue-600" label="Loading this offer's record" /> : null}
      </p>
      {offer?.better ? (
        <Button variant="outline" size="sm" className="h-auto min-h-8 whitespace-normal text-left" onClick={() => onBetter(offer.better!)} data-testid="sms-offer-better">
          {betterText(offer.better)}
        </Button>
      ) : null}
      {choices && (choices.carriers || choices.areas || choices.operator) ? (
        <div className="grid gap-4 @2xl:grid-cols-3">
          {choices.carriers ? (
            <Field label="Carrier (optional)" hint={`Only numbers of this carrier.${percent(choices.carriers.surcharge_percent)}`}>
              {(p) => (
                <Select
                  {...p}
                  options={[{ value: "", label: "Any carrier" }, ...choices.carriers!.options]}
                  value={fields.carrier}
                  onValueChange={(carrier) => onFields({ ...fields, carrier })}
                />
              )}
            </Field>
          ) : null}
          {choices.areas ? (
            <Field
              label="Area code (optional)"
              hint={`Up to ${choices.areas.max}, separated by commas.${percent(choices.areas.surcharge_percent)}`}
              error={areasInvalid}
            >
              {(p) => (
                <Input {...p} inputMode="numeric" placeholder="e.g. 212, 718" value={fields.areas} onChange={(e) => onFields({ ...fields, areas: e.target.value })} data-testid="sms-area-codes" />
              )}
            </Field>
          ) : null}
          {choices.operator ? (
            <Field label="Operator (optional)" hint={`Only numbers of this mobile operator.${percent(choices.operator.surcharge_percent)}`}>
              {(p) => (
                <Select
                  {...p}
                  options={[{ value: "", label: "Any operator" }, ...choices.operator!.options]}
                  value={fields.operator}
                  onValueChange={(operator) => onFields({ ...fields, operator })}
                />
              )}
            </Field>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400" data-testid="sms-choice-refused">
          {error}
        </p>
      ) : surcharge ? (
        <p className="text-sm font-medium text-amber-800 dark:text-amber-300" data-testid="sms-choice-surcharge">
          {surcharge}
        </p>
      ) : null}
    </div>
  );
}
