export default function LoginPage() {
  return <main className="p-6"><h1 className="text-2xl font-semibold">Login</h1></main>;
}
