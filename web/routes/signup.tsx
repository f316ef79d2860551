export default function SignupPage() {
  return <main className="p-6"><h1 className="text-2xl font-semibold">Signup</h1></main>;
}
