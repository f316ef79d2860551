export default function TermsPage() {
  return <main className="p-6"><h1 className="text-2xl font-semibold">Terms</h1></main>;
}
