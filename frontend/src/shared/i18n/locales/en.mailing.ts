/**
 * English texts of the administrators' mailing-list page (spec §2, §7 mailing-list sync). Kept out of
 * the feed's bundle: the lazily loaded page imports shared/i18n/mailingTexts.ts, which adds them to
 * the English catalogue before it draws.
 */
export const enMailing = {
  mailingSync: {
    adminsOnly: 'Only administrators can open this page.',
    connection: {
      title: 'Connection',
      checking: 'Checking the connection…',
      connected: 'Connected',
      notConnected: 'Not connected',
      list: 'List “{{name}}” ({{id}})',
      members_one: '{{count}} subscribed member',
      members_other: '{{count}} subscribed members',
      failed: 'The mailing-list provider could not be reached.',
      check: 'Check again',
    },
    diff: {
      title: 'Differences',
      consenting_one: '{{count}} user consented to e-mails',
      consenting_other: '{{count}} users consented to e-mails',
      subscribed_one: '{{count}} member subscribed on the list',
      subscribed_other: '{{count}} members subscribed on the list',
      inStep: 'In step: every user who consented is subscribed, and nobody else is.',
      toSubscribe: 'To subscribe',
      toSubscribeHint: 'Users who consented to e-mails but are not subscribed on the list.',
      toUnsubscribe: 'To unsubscribe',
      toUnsubscribeHint: 'Subscribed members who are not users consenting to e-mails.',
      people_one: '{{count}} person',
      people_other: '{{count}} people',
      nobody: 'Nobody',
      failed: 'The differences could not be loaded.',
      pages: 'Pages of “{{side}}”',
    },
    sync: {
      title: 'Synchronisation',
      explain: 'Subscribes the users who consented and unsubscribes everyone else, in batches. An interrupted sync continues where it stopped.',
      start: 'Sync',
      resume: 'Resume sync',
      progressLabel: 'Sync progress',
      preparing: 'Comparing the list…',
      running: 'Syncing: {{done}} of {{total}}',
      never: 'No sync has run yet.',
      completed: 'The last sync finished on {{date}}.',
      subscribed_one: '{{count}} subscribed',
      subscribed_other: '{{count}} subscribed',
      unsubscribed_one: '{{count}} unsubscribed',
      unsubscribed_other: '{{count}} unsubscribed',
      rejected_one: '{{count}} refused by the provider',
      rejected_other: '{{count}} refused by the provider',
      nothingToDo: 'Nothing needed changing.',
      failedTitle: 'The sync stopped',
      failedHint: 'Resume it to continue from where it stopped.',
      startFailed: 'The sync could not start.',
    },
  },
};
