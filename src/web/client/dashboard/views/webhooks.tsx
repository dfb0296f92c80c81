import { useTitle } from '../ui/controls.js';

/** Placeholder: a form's webhooks (issue 13), being written. */
export function Webhooks() {
  useTitle('Webhooks');
  return (
    <section class="view">
      <h1>Webhooks</h1>
    </section>
  );
}
