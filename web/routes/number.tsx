export default function NumberPage() {
  return <main className="p-6"><h1 className="text-2xl font-semibold">Number</h1></main>;
}
