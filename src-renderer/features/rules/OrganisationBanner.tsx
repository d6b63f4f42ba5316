import { useAppStore } from '../../stores/use-app-store';

/** The organisation's file cannot be read or is wrong: said on every page, with the file and the error. */
export function OrganisationBanner() {
  const problem = useAppStore((s) => s.rules?.organisationProblem);
  if (!problem) return null;
  return (
    <div role="alert" className="banner banner-organisation">
      Your organisation&apos;s policy file <code>{problem.file}</code> could not be used: {problem.message}. The policy read before stays in
      force.
    </div>
  );
}
