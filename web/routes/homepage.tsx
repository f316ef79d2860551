export default function HomepagePage() {
  return <main className="p-6"><h1 className="text-2xl font-semibold">Homepage</h1></main>;
}
