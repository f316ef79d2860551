export default function ResetPasswordPage() {
  return <main className="p-6"><h1 className="text-2xl font-semibold">ResetPassword</h1></main>;
}
