/** The label and its configuration as they were when the run started, and who holds the report. */
import type { ReactNode } from 'react';
import type { LabelReport } from '../../schema/report';
import { formatCustomValue, formatDuration, modeLabel, roleLabel, statusLabel, typeLabel } from '../lib/format';
import { formatIsoTime, formatTime } from '../lib/time-zone';
import { useTimeZone } from '../state/time-zone';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/**
 * The report's custom fields as words, one fact each: the print view's list, and on paper the
 * report panel's in place of its editor (a form, which the printout leaves out).
 */
export function CustomFieldFacts({ report }: { report: LabelReport }) {
  const fields = report.customFields ?? [];
  if (fields.length === 0) return <p>None.</p>;
  return (
    <dl className="facts" data-testid="custom-field-facts">
      {fields.map((f) => (
        <Fact key={f.customFieldId} label={f.customFieldId}>
          {formatCustomValue(f.value)}
        </Fact>
      ))}
    </dl>
  );
}

/**
 * `companyNames` maps company ids to names (from /local/companies); a partner the service does
 * not name is shown by its id.
 */
export function FactsPanel({ report, companyId, companyNames }: { report: LabelReport; companyId: string; companyNames: ReadonlyMap<string, string> }) {
  const zone = useTimeZone();
  const c = report.senseConfig;
  const fw = report.label.firmwareVersionInfo;
  return (
    <section className="panel" aria-labelledby="facts-title">
      <h3 id="facts-title">Label and configuration</h3>
      <dl className="facts" data-testid="facts">
        <Fact label="Label UID">{report.label.uid}</Fact>
        <Fact label="Sequence code">{report.label.sequenceCode}</Fact>
        <Fact label="Label">
          {report.label.name} ({report.label.type})
        </Fact>
        <Fact label="Firmware">
          {fw.firmwareVersion} (API {fw.firmwareApiVersion})
        </Fact>
        <Fact label="Interval">{formatDuration(c.interval)}</Fact>
        <Fact label="Configured">{formatTime(c.configTime, zone)}</Fact>
        <Fact label="Start delay">{formatDuration(c.startDelay)}</Fact>
        <Fact label="Running time">{c.runningTime > 0 ? formatDuration(c.runningTime) : 'not limited'}</Fact>
        <Fact label="Mode">{modeLabel(report.mode)}</Fact>
        <Fact label="Type">{typeLabel(report.type)}</Fact>
        <Fact label="Status">{statusLabel(report.status)}</Fact>
        <Fact label="Company">
          {report.company.name} ({report.company.shortCode})
        </Fact>
        {report.subCompany && <Fact label="Sub-company">{report.subCompany.id}</Fact>}
        <Fact label="Created">{formatIsoTime(report.created, zone)}</Fact>
        <Fact label="Updated">{formatIsoTime(report.updated, zone)}</Fact>
        <Fact label="Report id">
          <code>{report.id}</code>
        </Fact>
      </dl>
      <h4>Access</h4>
      <ul className="access-list" data-testid="access-list">
        {report.access.map((a) => (
          <li key={a.id}>
            <span className={`role role--${a.role}`}>{roleLabel(a.role)}</span>{' '}
            {a.companyId === report.company.id ? report.company.name : (companyNames.get(a.companyId) ?? a.companyId)}
            {a.companyId === companyId && <strong> — your company</strong>}
          </li>
        ))}
      </ul>
    </section>
  );
}
