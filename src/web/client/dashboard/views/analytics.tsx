import { useTitle } from '../ui/controls.js';

/** Placeholder: analytics per environment and form (issue 13), being written. */
export function Analytics() {
  useTitle('Analytics');
  return (
    <section class="view">
      <h1>Analytics</h1>
    </section>
  );
}
