/**
 * What the desktop says when alarms arrive: which native notifications (or in-app notices) to
 * show and the badge's count, decided from the service's answer and what was shown before. Pure,
 * so the Electron main process and the browser UI decide alike.
 */
import { levelName } from '../model/alarm';

/** The part of an alarm the decision reads. */
export interface NoticeAlarm {
  id: string;
  reportId: string;
  labelReference: string;
  level: number;
  excursion: string;
  created: string;
}

/** What the desktop shows for an alarm: a title and a line naming the report, the level and the excursion. */
export interface DesktopNotice {
  alarmId: string;
  reportId: string;
  title: string;
  body: string;
}

export interface NotificationInput {
  /** The company's unacknowledged alarms, newest first, as the service answers them. */
  alarms: readonly NoticeAlarm[];
  /** Ids already shown (or present at the first look). */
  seen: ReadonlySet<string>;
  /** The first look after the app starts: what is already open was known before, and is not announced again. */
  firstLook: boolean;
  /** At most this many notices at once; more are summed up in one. */
  max?: number;
}

export interface NotificationDecision {
  notices: DesktopNotice[];
  /** The badge: how many alarms nobody acknowledged. */
  badge: number;
  /** Ids to remember as seen from now on. */
  seen: Set<string>;
}

/**
 * Which native notifications to show now: one per alarm not seen before, most critical and
 * newest first, at most `max`, the rest in one notice that counts them. The badge is the
 * number of unacknowledged alarms. Nothing is announced at the first look: the badge says it.
 */
export function decideNotifications(input: NotificationInput): NotificationDecision {
  const max = input.max ?? 3;
  const seen = new Set(input.alarms.filter((a) => input.seen.has(a.id)).map((a) => a.id));
  const fresh = input.alarms.filter((a) => !input.seen.has(a.id));
  for (const a of fresh) seen.add(a.id);
  const badge = input.alarms.length;
  if (input.firstLook || fresh.length === 0) return { notices: [], badge, seen };
  const ordered = [...fresh].sort((a, b) => b.level - a.level || b.created.localeCompare(a.created) || a.id.localeCompare(b.id));
  const shown = ordered.length > max ? ordered.slice(0, max - 1) : ordered;
  const notices: DesktopNotice[] = shown.map((a) => ({
    alarmId: a.id,
    reportId: a.reportId,
    title: `${levelName(a.level)} alarm: ${a.labelReference}`,
    body: a.excursion,
  }));
  if (ordered.length > max) {
    const rest = ordered.slice(max - 1);
    notices.push({
      alarmId: rest[0].id,
      reportId: rest[0].reportId,
      title: `${rest.length} more alarms`,
      body: rest.map((a) => a.labelReference).slice(0, 5).join(', ') + (rest.length > 5 ? ', …' : ''),
    });
  }
  return { notices, badge, seen };
}
