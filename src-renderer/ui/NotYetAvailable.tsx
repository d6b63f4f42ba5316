/** An honest placeholder for a page a later version fills: it says so, and pretends nothing. */
export function NotYetAvailable({ title, what }: { title: string; what: string }) {
  return (
    <section aria-labelledby="page-title" className="page">
      <h1 id="page-title">{title}</h1>
      <p className="muted">Not available yet. {what}</p>
    </section>
  );
}
