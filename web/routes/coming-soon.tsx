export default function ComingSoonPage() {
  return (
    <section className="flex min-h-[50vh] items-center justify-center">
      <p className="text-xl text-slate-500 dark:text-slate-400">....Coming soon!</p>
    </section>
  );
}
