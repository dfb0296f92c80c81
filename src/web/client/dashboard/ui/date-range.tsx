/**
 * "From" and "To" as date inputs (yyyy-mm-dd, '' for no bound), each bounding the other; when
 * `problem` is set, "To" is marked invalid and both point at the message with id `${id}-error`
 * (which the view shows where it fits).
 */
/** Why the range cannot be asked for, under the inputs, read out when it appears. */
export function RangeProblem({ id, problem }: { id: string; problem: string | undefined }) {
  if (!problem) return null;
  return (
    <p class="error" id={`${id}-error`} role="alert">
      {problem} Change one of the dates.
    </p>
  );
}

export function DateRange({
  id,
  from,
  to,
  problem,
  change,
}: {
  id: string;
  from: string;
  to: string;
  problem: string | undefined;
  change: (bound: 'from' | 'to', value: string) => void;
}) {
  const described = problem ? `${id}-error` : undefined;
  return (
    <>
      <div class="control-row">
        <label for={`${id}-from`}>From</label>
        <input
          id={`${id}-from`}
          type="date"
          value={from}
          max={to || undefined}
          aria-describedby={described}
          onChange={(event) => change('from', event.currentTarget.value)}
        />
      </div>
      <div class="control-row">
        <label for={`${id}-to`}>To</label>
        <input
          id={`${id}-to`}
          type="date"
          value={to}
          min={from || undefined}
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby={described}
          onChange={(event) => change('to', event.currentTarget.value)}
        />
      </div>
    </>
  );
}
