import { Avatar, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconId, IconMap, IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';

import type { CreatorCard } from '../../../shared/api/generated/types.gen';
import { creatorByNameQueryOptions } from '../../../shared/creators/creatorLookup';
import { formatCount } from '../../../shared/format/formatCount';
import { paths } from '../../../shared/routing/paths';
import { SkeletonGrid } from '../components/CardGrid';
import { CreatorTours } from '../components/CreatorTours';
import { EmptyGrid } from '../components/InfiniteCardGrid';
import classes from './FeedPage.module.css';
import headerClasses from './CreatorGridPage.module.css';

/** The creator-scoped grid (spec §2 `/{creatorName}/grid`, route gridCreatorLink). */
export function CreatorGridPage() {
  const { t } = useTranslation();
  const { creatorName = '' } = useParams();
  const lookup = useQuery(creatorByNameQueryOptions(creatorName));

  let content;
  if (lookup.isPending) content = <SkeletonGrid />;
  else if (lookup.isError) content = <EmptyGrid text={t('feed.errorTitle')} />;
  else if (lookup.data === null) content = <EmptyGrid text={t('creator.notFound', { name: creatorName })} />;
  else content = <CreatorTours userId={lookup.data.userid} layout="grid" />;

  return (
    <main className={classes.page}>
      <CreatorHeader creatorName={creatorName} creator={lookup.data ?? null} loading={lookup.isPending} />
      {content}
    </main>
  );
}

function CreatorHeader({ creatorName, creator, loading }: { creatorName: string; creator: CreatorCard | null; loading: boolean }) {
  const { t } = useTranslation();
  return (
    <Group className={headerClasses.header} justify="space-between" gap="md" data-testid="creator-scope">
      <Group gap="md" wrap="nowrap" miw={0}>
        <Avatar src={creator?.logo} size={56} radius={999} alt={creator?.creator_name ?? creatorName} className={headerClasses.logo}>
          <IconUser size={28} stroke={1.4} />
        </Avatar>
        <Stack gap={2} miw={0}>
          {loading ? (
            <Skeleton height={22} width={180} radius="sm" />
          ) : (
            <Title order={1} size="h3" lineClamp={1}>
              {creator?.creator_name ?? `@${creatorName}`}
            </Title>
          )}
          <Text size="sm" c="dimmed" lineClamp={2}>
            @{creatorName}
            {creator && ` · ${t('creator.summary', { tours: formatCount(creator.vt_count), followers: formatCount(creator.followers) })}`}
          </Text>
        </Stack>
      </Group>
      <Group gap="xs">
        <Button component={Link} to={paths.creatorMap(creatorName)} variant="default" radius="xl" leftSection={<IconMap size={16} />}>
          {t('creator.viewMap')}
        </Button>
        {creator && (
          <Button component={Link} to={paths.creator(creator.id, creatorName)} variant="light" radius="xl" leftSection={<IconId size={16} />}>
            {t('creator.profile')}
          </Button>
        )}
      </Group>
    </Group>
  );
}
