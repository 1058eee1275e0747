import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconHome, IconMapQuestion } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '../../../shared/routing/paths';
import classes from './StatusPages.module.css';

/** Any path the app does not know (spec §2): say so and offer the way back home. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center className={classes.screen}>
      <Stack align="center" gap="md" maw={460} ta="center">
        <div className={classes.badge}>
          <IconMapQuestion size={34} stroke={1.6} />
        </div>
        <Text className={classes.code}>404</Text>
        <Title order={1} className={classes.title}>
          {t('notFound.title')}
        </Title>
        <Text c="dimmed" size="lg">
          {t('notFound.text')}
        </Text>
        <Button component={Link} to={paths.root} size="md" radius="xl" leftSection={<IconHome size={18} />}>
          {t('notFound.home')}
        </Button>
      </Stack>
    </Center>
  );
}
