/**
 * English texts of the Popular tags page (issue 18 part 6). Kept out of the feed's bundle: the lazily
 * loaded page imports shared/i18n/tagsTexts.ts, which adds them to the English catalogue before it draws.
 */
export const enTags = {
  popularTags: {
    title: 'Popular tags',
    intro: 'The tags most tours carry, #hashtags of their descriptions included. Open one to see its tours.',
    tours_one: '{{formatted}} tour',
    tours_other: '{{formatted}} tours',
    rank: 'No. {{rank}}',
    listLabel: 'Tags, most used first',
    empty: 'No tour carries a tag yet.',
    failed: 'The tags could not be loaded.',
    retry: 'Try again',
    more: 'Show more',
    shown: '{{shown}} of {{total}} tags',
  },
};
