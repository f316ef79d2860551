// Golden fixtures are imported as text (Vite's ?raw) by the adapter tests (worker/providers/sms/fixtures.test.ts).
declare module "*?raw" {
  const text: string;
  export default text;
}
