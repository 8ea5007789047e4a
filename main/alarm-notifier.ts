/**
 * The desktop's voice for alarms: asks the local service for the company's unacknowledged
 * alarms, shows a native notification for each one not seen before (contract/alarm-notices.ts
 * decides which), opens the report when one is clicked, and keeps the app's badge at the count.
 *
 * No Electron import: main.ts passes Notification and the badge in, so this runs under Node in tests.
 */
import { decideNotifications, type DesktopNotice, type NoticeAlarm } from '../contract/alarm-notices';

/** The part of Electron's Notification the notifier uses. */
export interface NotificationLike {
  on(event: 'click', listener: () => void): unknown;
  show(): void;
}

export interface AlarmNotifierOptions {
  baseUrl: string;
  sessionKey: string;
  createNotification(options: { title: string; body: string }): NotificationLike;
  /** The report opened in the app's window. */
  openReport(reportId: string): void;
  setBadge(count: number): void;
  /** How often the service is asked. */
  intervalMs?: number;
  warn?(message: string): void;
}

/** Alarms read from one answer: capped, as anything read from elsewhere. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export class AlarmNotifier {
  private seen = new Set<string>();
  private firstLook = true;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: AlarmNotifierOptions) {}

  start(): void {
    const tick = () => {
      void this.poll().finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.options.intervalMs ?? 15_000);
      });
    };
    tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** One look: returns the notices shown. A service that does not answer is tried at the next look. */
  async poll(): Promise<DesktopNotice[]> {
    let alarms: NoticeAlarm[];
    try {
      alarms = [...(await this.read('open')), ...(await this.read('escalated'))];
    } catch (err) {
      this.options.warn?.(`LabelDesk: the alarms could not be read: ${(err as Error).message}`);
      return [];
    }
    const decision = decideNotifications({ alarms, seen: this.seen, firstLook: this.firstLook });
    this.seen = decision.seen;
    this.firstLook = false;
    this.options.setBadge(decision.badge);
    for (const notice of decision.notices) {
      const notification = this.options.createNotification({ title: notice.title, body: notice.body });
      notification.on('click', () => this.options.openReport(notice.reportId));
      notification.show();
    }
    return decision.notices;
  }

  private async read(state: 'open' | 'escalated'): Promise<NoticeAlarm[]> {
    const res = await fetch(`${this.options.baseUrl}/local/alarms?state=${state}&pageSize=100`, { headers: { 'x-api-key': this.options.sessionKey } });
    const text = await res.text();
    if (text.length > MAX_ANSWER_BYTES) throw new Error(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    if (!res.ok) throw new Error(`the service answered ${res.status}`);
    const body = JSON.parse(text) as { alarms?: unknown };
    if (!Array.isArray(body.alarms)) throw new Error('the answer holds no alarms');
    return body.alarms.filter(isNoticeAlarm);
  }
}

function isNoticeAlarm(value: unknown): value is NoticeAlarm {
  const a = value as Record<string, unknown> | null;
  return (
    typeof a === 'object' && a !== null &&
    typeof a.id === 'string' && typeof a.reportId === 'string' && typeof a.labelReference === 'string' &&
    typeof a.level === 'number' && typeof a.excursion === 'string' && typeof a.created === 'string'
  );
}
