export default function PrivacyPage() {
  return <main className="p-6"><h1 className="text-2xl font-semibold">Privacy</h1></main>;
}
