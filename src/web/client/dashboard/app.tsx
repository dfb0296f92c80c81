import { SiteHeader } from '../../components/site-header.js';

/** The dashboard (API.md §11.3). For now a placeholder that proves the pipeline: built, served, run. */
export function App() {
  return (
    <>
      <SiteHeader home="/app" />
      <main class="page" id="main">
        <h1>Intake dashboard</h1>
        <p>Sign-in, your forms, their responses and analytics will be here.</p>
        <p class="muted">Meanwhile, everything is available through the HTTP API.</p>
      </main>
    </>
  );
}
