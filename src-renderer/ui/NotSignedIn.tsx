/** Web mode, in a tab that was not opened through the link the host printed: say how to get in. */
export function NotSignedIn() {
  return (
    <main className="content">
      <h1>Patchbay</h1>
      <p role="alert">
        This tab is not connected to a Patchbay host. Open the link that <code>npm run web</code> (or <code>npm start</code>) printed — it
        carries a one-time token.
      </p>
    </main>
  );
}
