/**
 * What an alarm e-mail says, as plain text and HTML: the report by its reference, the level,
 * the excursion in words, who is told at which step, and a link that opens the report in the
 * app. The daily digest lists the day's alarms with their state.
 */
import type { AlarmRow } from '../db/alarm-store';
import { levelName } from '../model/alarm';

export interface MailText {
  subject: string;
  text: string;
  html: string;
}

/** The address that opens the report in the app: the browser UI keeps the open report in `?report=`. */
export function reportLink(appUrl: string, reportId: string): string {
  const base = appUrl.endsWith('/') ? appUrl : `${appUrl}/`;
  return `${base}?report=${encodeURIComponent(reportId)}`;
}

export function alarmMail(alarm: AlarmRow, appUrl: string, step: number): MailText {
  const level = levelName(alarm.level);
  const link = reportLink(appUrl, alarm.reportId);
  const escalation = step > 0 ? ` (escalated: nobody acknowledged it in time)` : '';
  const subject = `${level} alarm: ${alarm.labelReference}${step > 0 ? ' (escalated)' : ''}`;
  const text = [
    `${level} alert on label report ${alarm.labelReference}${escalation}.`,
    '',
    alarm.excursion,
    '',
    `Raised ${alarm.created} by ${alarm.ruleName ? `the rule “${alarm.ruleName}”` : 'an alarm rule'}.`,
    `Open the report to read it and acknowledge the alert: ${link}`,
    '',
    'The alarm stops when the alert is acknowledged in LabelDesk.',
  ].join('\n');
  const html = `<!doctype html><html><body>
<p><strong>${escapeHtml(level)} alert</strong> on label report <strong>${escapeHtml(alarm.labelReference)}</strong>${escapeHtml(escalation)}.</p>
<p>${escapeHtml(alarm.excursion)}</p>
<p>Raised ${escapeHtml(alarm.created)} by ${alarm.ruleName ? `the rule “${escapeHtml(alarm.ruleName)}”` : 'an alarm rule'}.</p>
<p><a href="${escapeHtml(link)}">Open the report in LabelDesk</a> to read it and acknowledge the alert.</p>
<p>The alarm stops when the alert is acknowledged in LabelDesk.</p>
</body></html>`;
  return { subject, text, html };
}

export function digestMail(alarms: readonly AlarmRow[], appUrl: string, at: Date): MailText {
  const day = at.toISOString().slice(0, 10);
  const subject = alarms.length === 0 ? `LabelDesk alarms ${day}: none` : `LabelDesk alarms ${day}: ${alarms.length}`;
  const line = (a: AlarmRow) => `${levelName(a.level)} · ${a.labelReference} · ${a.state}${a.acknowledged ? ` by ${a.acknowledged.by}` : ''} · ${reportLink(appUrl, a.reportId)}`;
  const text = alarms.length === 0 ? 'No alarm was raised in the last 24 hours.' : ['Alarms raised in the last 24 hours:', '', ...alarms.map(line)].join('\n');
  const html = `<!doctype html><html><body>${
    alarms.length === 0
      ? '<p>No alarm was raised in the last 24 hours.</p>'
      : `<p>Alarms raised in the last 24 hours:</p><ul>${alarms
          .map(
            (a) =>
              `<li>${escapeHtml(levelName(a.level))} · <a href="${escapeHtml(reportLink(appUrl, a.reportId))}">${escapeHtml(a.labelReference)}</a> · ${escapeHtml(a.state)}${
                a.acknowledged ? ` by ${escapeHtml(a.acknowledged.by)}` : ''
              }</li>`,
          )
          .join('')}</ul>`
  }</body></html>`;
  return { subject, text, html };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
