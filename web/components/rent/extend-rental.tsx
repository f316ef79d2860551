import { naira } from "../../../schema/money";
import { useExtendOptions, useExtendRental } from "../../api/rentals";
import { toast } from "../../lib/toast";
import { Button } from "../ui/button";

/**
 * The inbox's Extend choices, each with the server's price. Shown only where the upstream documents extension
 * (decision 019): for today's sms-man rentals the server answers no options and nothing renders.
 */
export function ExtendRental({ rentalId, active }: { rentalId: string; active: boolean }) {
  const options = useExtendOptions(rentalId, active);
  const extend = useExtendRental();
  const list = options.data?.options ?? [];
  if (!active || list.length === 0) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="extend-rental">
      <p className="text-sm font-semibold">Keep this number longer</p>
      <div className="flex flex-wrap gap-2">
        {list.map((o) => (
          <Button
            key={`${o.unit}-${o.period}`}
            size="sm"
            variant="outline"
            disabled={extend.isPending}
            onClick={() =>
              extend.mutate(
                { id: rentalId, unit: o.unit, period: o.period, price: o.price },
                {
                  onSuccess: (res) => toast.success(`Rental extended by ${o.duration} for ${naira(res.charged)}`),
                  onError: (err) => toast.error(err.message),
                },
              )
            }
          >
            Extend {o.duration} — {naira(o.price)}
          </Button>
        ))}
      </div>
    </div>
  );
}
