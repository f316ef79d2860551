import { PublicPage } from "../components/layout/public-page";
import { PRODUCT_NAME } from "../components/layout/logo";
import { useDocumentTitle } from "../components/layout/logo";

export default function PrivacyPage() {
  useDocumentTitle("Privacy");
  return (
    <PublicPage title="Privacy Policy" updated="1 May 2026">
      <p>
        This policy explains what {PRODUCT_NAME} collects when you use the Service, why, and the choices you have. We collect
        only what we need to run your account, your wallet and your numbers.
      </p>
      <section className="flex flex-col gap-3">
        <h2>What we collect</h2>
        <ul>
          <li>Account details: your username, email address and phone number, and a salted hash of your password (never the password itself).</li>
          <li>Wallet and orders: deposits, purchases, rentals, refunds and the messages received on numbers you bought or rented.</li>
          <li>Technical data: request logs with an anonymous request id, kept to keep the Service secure and to fix faults.</li>
        </ul>
      </section>
      <section className="flex flex-col gap-3">
        <h2>How we use it</h2>
        <ul>
          <li>To sign you in, keep your balance right and deliver the codes you paid for.</li>
          <li>To send the emails you ask for, such as a password reset link.</li>
          <li>To prevent fraud and abuse, for example by limiting repeated failed logins.</li>
        </ul>
      </section>
      <section className="flex flex-col gap-3">
        <h2>Who we share it with</h2>
        <p>
          Our payment partners receive what a payment needs (amount, email, reference). Number providers receive no personal
          details. We never sell your data.
        </p>
      </section>
      <section className="flex flex-col gap-3">
        <h2>How long we keep it</h2>
        <p>
          Account and wallet records are kept while your account is open and as long as the law requires for financial records.
          Received messages are kept only as long as needed to show them to you.
        </p>
      </section>
      <section className="flex flex-col gap-3">
        <h2>Your choices</h2>
        <p>
          You can update your username and phone number in Settings at any time. To get a copy of your data or close your
          account, write to{" "}
          <a className="font-medium text-blue-700 hover:underline dark:text-blue-400" href="mailto:support@virtualnum.ng">
            support@virtualnum.ng
          </a>
          .
        </p>
      </section>
    </PublicPage>
  );
}
