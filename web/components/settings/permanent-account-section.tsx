import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { staticAccountSchema, type StaticAccountRequest } from "../../../schema/transfers";
import * as queryKeys from "../../api/keys";
import { openStaticAccount, useStaticAccount } from "../../api/transfers";
import { validateForm, type FieldErrors } from "../../lib/form";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Field } from "../ui/field";
import { Input, PasswordInput } from "../ui/input";

type Values = Omit<StaticAccountRequest, "gender"> & { gender: string };
const EMPTY: Values = { first_name: "", last_name: "", middle_name: "", mobile_num: "", dob: "", gender: "", address: "", bvn: "" };

/**
 * Settings → Permanent account number (issue 31): Squad opens an account in the customer's name once it has matched the
 * BVN to the names, date of birth, gender and phone (schema/transfers.ts checks them first). The BVN is sent once and
 * shown back only masked; the form forgets it as soon as the account exists.
 */
export function PermanentAccountSection() {
  const queryClient = useQueryClient();
  const account = useStaticAccount();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<Values>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (key: keyof Values) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setValues((v) => ({ ...v, [key]: e.target.value }));
    setErrors((errs) => ({ ...errs, [key]: undefined }));
    setFailure(null);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const result = validateForm(staticAccountSchema, values as StaticAccountRequest);
    if (!result.ok) return setErrors(result.errors as FieldErrors<Values>);
    // A retry starts clean: the last attempt's words (e.g. a BVN mismatch) are not this attempt's outcome.
    setFailure(null);
    setBusy(true);
    try {
      const opened = await openStaticAccount(result.data);
      queryClient.setQueryData(queryKeys.staticAccount, opened);
      setValues(EMPTY);
    } catch (err) {
      setFailure(err instanceof Error ? err.message : "Could not open the account. Please try again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Permanent account number</CardTitle>
        <CardDescription>An account number in your name: any transfer into it is added to your wallet by itself.</CardDescription>
      </CardHeader>
      <CardContent>
        {account.data ? (
          <dl className="grid gap-2 text-sm sm:grid-cols-2" data-testid="permanent-account">
            <div>
              <dt className="text-slate-500">Bank</dt>
              <dd className="font-semibold">{account.data.bank_name}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Account number</dt>
              <dd className="whitespace-nowrap font-mono font-semibold">{account.data.account_number}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Account name</dt>
              <dd className="font-semibold">{account.data.account_name}</dd>
            </div>
            <div>
              <dt className="text-slate-500">BVN</dt>
              <dd className="font-mono">{account.data.bvn}</dd>
            </div>
          </dl>
        ) : (
          <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4" aria-busy={busy}>
            <p className="text-sm text-slate-600 dark:text-slate-400">Use the details exactly as registered on your BVN: Squad checks them.</p>
            {failure ? <Alert variant="error">{failure}</Alert> : null}
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="First name" error={errors.first_name}>
                {(p) => <Input {...p} name="first_name" autoComplete="given-name" value={values.first_name} onChange={set("first_name")} />}
              </Field>
              <Field label="Last name" error={errors.last_name}>
                {(p) => <Input {...p} name="last_name" autoComplete="family-name" value={values.last_name} onChange={set("last_name")} />}
              </Field>
              <Field label="Middle name (optional)" error={errors.middle_name}>
                {(p) => <Input {...p} name="middle_name" autoComplete="additional-name" value={values.middle_name ?? ""} onChange={set("middle_name")} />}
              </Field>
              <Field label="Phone number registered with your BVN" error={errors.mobile_num}>
                {(p) => <Input {...p} name="mobile_num" type="tel" inputMode="tel" autoComplete="tel-national" value={values.mobile_num} onChange={set("mobile_num")} />}
              </Field>
              <Field label="Date of birth" error={errors.dob}>
                {(p) => <Input {...p} name="dob" type="date" autoComplete="bday" value={values.dob} onChange={set("dob")} />}
              </Field>
              <Field label="Gender" error={errors.gender}>
                {(p) => (
                  <select {...p} name="gender" value={values.gender} onChange={set("gender")} className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-900">
                    <option value="">Choose</option>
                    <option value="female">Female</option>
                    <option value="male">Male</option>
                  </select>
                )}
              </Field>
            </div>
            <Field label="Address" error={errors.address}>
              {(p) => <Input {...p} name="address" autoComplete="street-address" value={values.address} onChange={set("address")} />}
            </Field>
            <Field label="BVN" hint="11 digits. Sent to Squad once; we keep only the last four." error={errors.bvn}>
              {(p) => (
                // Masked while typed (issue 43): a BVN is a key to the customer's bank identity; the eye shows it to check.
                <PasswordInput {...p} secretName="BVN" name="bvn" inputMode="numeric" autoComplete="off" data-1p-ignore data-lpignore="true" maxLength={11} value={values.bvn} onChange={set("bvn")} />
              )}
            </Field>
            <div>
              <Button type="submit" disabled={busy}>
                {busy ? "Opening..." : "Get my account number"}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
