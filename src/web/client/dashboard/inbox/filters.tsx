import { Tick } from '../ui/controls.js';
import { DateRange, RangeProblem } from '../ui/date-range.js';
import { csvHref, type Filter, type InboxForm, rangeProblem, readOf, statusOf } from './model.js';
import { SHORTCUTS } from './shortcuts.js';

/** The inbox's filter (status, read, a date range, starred) and the CSV of exactly what it lists. */
export function Filters({
  form,
  filter,
  change,
}: {
  form: InboxForm | undefined;
  filter: Filter;
  change: (part: Partial<Filter>) => void;
}) {
  const badRange = rangeProblem(filter);
  return (
    <>
      <div class="inbox__filters">
        <div class="control-row">
          <label for="filter-status">Show</label>
          <select
            id="filter-status"
            value={filter.status}
            onChange={(event) => change({ status: statusOf(event.currentTarget.value) })}
          >
            <option value="">Accepted and flagged</option>
            <option value="accepted">Accepted</option>
            <option value="flagged">Flagged as spam</option>
            <option value="quarantined">Quarantined</option>
          </select>
        </div>
        <div class="control-row">
          <label for="filter-read">Read</label>
          <select
            id="filter-read"
            value={filter.read}
            onChange={(event) => change({ read: readOf(event.currentTarget.value) })}
          >
            <option value="">Read or not</option>
            <option value="false">Unread</option>
            <option value="true">Read</option>
          </select>
        </div>
        <DateRange
          id="filter"
          from={filter.from}
          to={filter.to}
          problem={badRange}
          change={(bound, value) => change({ [bound]: value })}
        />
        <Tick
          id="filter-starred"
          label="Starred only"
          checked={filter.starred}
          onChange={(starred) => change({ starred })}
        />
        {form && !badRange && (
          <a class="button" href={csvHref(form, filter)} download>
            Export CSV
          </a>
        )}
      </div>
      <RangeProblem id="filter" problem={badRange} />
    </>
  );
}

/** What the keys do, and the switch that turns them off. */
export function ShortcutsHelp({ on, setOn }: { on: boolean; setOn: (on: boolean) => void }) {
  return (
    <details class="inbox__keys">
      <summary>Keyboard shortcuts</summary>
      <Tick id="inbox-keys-on" label="Use these keys" checked={on} onChange={setOn} />
      <dl>
        {SHORTCUTS.map((shortcut) => (
          <div key={shortcut.key}>
            <dt>
              <kbd>{shortcut.key}</kbd>
            </dt>
            <dd>{shortcut.words}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
