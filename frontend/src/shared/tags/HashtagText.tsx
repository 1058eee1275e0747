import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { rememberTagLabels } from '../filters/tagLabels';
import { paths } from '../routing/paths';
import { descriptionParts, hashtagKey } from './hashtags';

export interface HashtagTag {
  id: number;
  name: string;
  /** The description's hashtag the tag came from (TourOut tags), or null for a tag picked in the form. */
  hashtag?: string | null;
}

/**
 * A tour description with its hashtags as links to the #tag search (issue 18 part 6): a `#word` is a
 * link when it is one of the tour's tags (the server made it one on saving, whatever its spelling:
 * `#GoldenHour` and `#golden_hour` alike); other hashtags stay text.
 */
export function HashtagText({ text, tags }: { text: string; tags: readonly HashtagTag[] }) {
  const { t } = useTranslation();
  const byKey = new Map<string, HashtagTag>();
  for (const tag of tags) if (tag.hashtag) byKey.set(hashtagKey(tag.hashtag), tag);
  return (
    <>
      {descriptionParts(text).map((part, position) => {
        const tag = part.kind === 'hashtag' ? byKey.get(part.key) : undefined;
        if (!tag) return part.text;
        return (
          <Anchor
            // The parts of one text never reorder: their position is their identity.
            key={position}
            component={Link}
            to={paths.tagSearch(tag.id)}
            onClick={() => rememberTagLabels([tag])}
            title={t('tourPage.tagSearch', { tag: tag.name })}
            data-testid="hashtag-link"
            data-tag-id={tag.id}
          >
            {part.text}
          </Anchor>
        );
      })}
    </>
  );
}
