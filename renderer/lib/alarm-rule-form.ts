/**
 * The alarm rule form of Settings › Alarms as text fields, to and from the body the API takes.
 * The body is judged with the API's own schema (schema/alarms.ts), so the form refuses what the
 * service would, in the same words; the filter's grammar is the service's to judge.
 */
import { alarmRuleBodySchema, type AlarmRuleAnswer, type AlarmRuleBody } from '../../schema/alarms';
import { plainZodError } from './plain-words';

export type AlarmChannel = AlarmRuleBody['channels'][number];

/** The channels in the order the form offers them, with their words. */
export const CHANNEL_WORDS: readonly (readonly [AlarmChannel, string])[] = [
  ['email', 'E-mail'],
  ['desktop', 'Desktop notice'],
  ['webhook', 'Webhooks that take labelReport.alarm'],
];

export interface AlarmRuleForm {
  name: string;
  minLevel: '1' | '2';
  filter: string;
  customFields: string;
  /** Addresses of the first step, comma or space separated. */
  first: string;
  /** Addresses told next when nobody acknowledges in time; empty for no escalation. */
  next: string;
  /** The people (user ids) told first, at the address their account holds. */
  firstPeople: string[];
  /** The people told next. */
  nextPeople: string[];
  escalateAfterMinutes: string;
  channels: AlarmChannel[];
  enabled: boolean;
}

export const EMPTY_RULE_FORM: AlarmRuleForm = {
  name: '',
  minLevel: '2',
  filter: '',
  customFields: '',
  first: '',
  next: '',
  firstPeople: [],
  nextPeople: [],
  escalateAfterMinutes: '',
  channels: ['email', 'desktop'],
  enabled: true,
};

const addresses = (text: string) => text.split(/[\s,;]+/).filter((a) => a !== '');

/** A stored rule in the form. */
export function formOfRule(rule: AlarmRuleAnswer): AlarmRuleForm {
  return {
    name: rule.name,
    minLevel: String(rule.minLevel) as '1' | '2',
    filter: rule.filter,
    customFields: rule.customFields,
    first: rule.steps[0]?.emails.join(', ') ?? '',
    next: rule.steps.slice(1).flatMap((s) => s.emails).join(', '),
    firstPeople: [...(rule.steps[0]?.users ?? [])],
    nextPeople: rule.steps.slice(1).flatMap((s) => s.users),
    escalateAfterMinutes: rule.escalateAfterMinutes === null ? '' : String(rule.escalateAfterMinutes),
    channels: [...rule.channels],
    enabled: rule.enabled,
  };
}

/** The body to send, or what is wrong in words. */
export function ruleBodyOf(form: AlarmRuleForm): { body: AlarmRuleBody } | { problem: string } {
  const next = addresses(form.next);
  const minutes = form.escalateAfterMinutes.trim();
  const escalates = next.length > 0 || form.nextPeople.length > 0;
  if (escalates && minutes === '') return { problem: 'Say after how many minutes without an acknowledgement the next people are told.' };
  if (minutes !== '' && !/^\d+$/.test(minutes)) return { problem: 'The minutes before escalating are a whole number.' };
  const steps = [{ users: form.firstPeople, emails: addresses(form.first) }];
  if (escalates) steps.push({ users: form.nextPeople, emails: next });
  if (steps[0].users.length === 0 && steps[0].emails.length === 0 && form.channels.includes('email')) {
    return { problem: 'Pick at least one person or give one address that is told first.' };
  }
  const parsed = alarmRuleBodySchema.safeParse({
    name: form.name,
    minLevel: Number(form.minLevel),
    filter: form.filter.trim(),
    customFields: form.customFields.trim(),
    steps,
    channels: form.channels,
    escalateAfterMinutes: minutes === '' ? null : Number(minutes),
    enabled: form.enabled,
  });
  return parsed.success ? { body: parsed.data } : { problem: plainZodError(parsed.error) };
}
