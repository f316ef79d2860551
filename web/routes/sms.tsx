export default function SmsPage() {
  return <main className="p-6"><h1 className="text-2xl font-semibold">Sms</h1></main>;
}
