import { Download } from "lucide-react";
import { useState } from "react";
import { lagosDay } from "../../../schema/datetime";
import { signedIn, text } from "../../api/client";
import { toast } from "../../lib/toast";
import { Button } from "../ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { Field } from "../ui/field";
import { Input } from "../ui/input";

/** Today and 30 days ago as Lagos calendar days (the app's one clock, schema/datetime.ts), the server's reading of the range. */
export function defaultRange(now = Date.now()): { from: string; to: string } {
  return { from: lagosDay(now - 30 * 86_400_000), to: lagosDay(now) };
}

/**
 * Export the transaction history or the orders as CSV for a date range: the server writes the file (the same rows the
 * screens show, naira with two decimals); the browser saves it.
 */
export function HistoryExport() {
  const [range, setRange] = useState(defaultRange);
  const [busy, setBusy] = useState<"transactions" | "orders" | null>(null);

  const download = async (what: "transactions" | "orders") => {
    setBusy(what);
    try {
      const csv = await signedIn.export[what === "orders" ? "orders.csv" : "transactions.csv"].$get({ query: range }).then(text);
      const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `${what}-${range.from}-to-${range.to}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The export failed. Please try again.");
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Export history (CSV)</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="grid grid-cols-2 gap-3">
          <Field label="From">{(p) => <Input {...p} type="date" value={range.from} onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))} />}</Field>
          <Field label="To">{(p) => <Input {...p} type="date" value={range.to} onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))} />}</Field>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" disabled={busy !== null} onClick={() => void download("transactions")}>
            <Download className="h-4 w-4" aria-hidden />
            Transactions
          </Button>
          <Button variant="outline" size="sm" disabled={busy !== null} onClick={() => void download("orders")}>
            <Download className="h-4 w-4" aria-hidden />
            Orders
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
