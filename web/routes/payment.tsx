export default function PaymentPage() {
  return <main className="p-6"><h1 className="text-2xl font-semibold">Payment</h1></main>;
}
