import { Alert, Anchor, Button, Container, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '../routing/paths';
import classes from './PageShell.module.css';

interface PageShellProps {
  title: ReactNode;
  description: ReactNode;
  /** Decoration shown above the title (an icon in a tinted circle). */
  icon?: ReactNode;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** The page's own content, shown once it is neither loading nor failed. */
  children?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}

const WIDTHS = { sm: 560, md: 760, lg: 1080 } as const;

/** The frame every content page shares: heading, purpose, loading and error states, a way home. */
export function PageShell({ title, description, icon, loading = false, error, onRetry, children, size = 'md' }: PageShellProps) {
  const { t } = useTranslation();
  return (
    <Container size={WIDTHS[size]} className={classes.page}>
      <Stack gap="lg">
        <Anchor component={Link} to={paths.feed} className={classes.back} size="sm">
          <Group gap={6} wrap="nowrap">
            <IconArrowLeft size={16} aria-hidden="true" />
            {t('page.backHome')}
          </Group>
        </Anchor>
        {icon && <div className={classes.icon}>{icon}</div>}
        <Stack gap={8}>
          <Title order={1} className={classes.title}>
            {title}
          </Title>
          <Text c="dimmed" size="lg" maw={640}>
            {description}
          </Text>
        </Stack>
        <PageBody loading={loading} error={error} onRetry={onRetry}>
          {children}
        </PageBody>
      </Stack>
    </Container>
  );
}

function PageBody({ loading, error, onRetry, children }: Pick<PageShellProps, 'loading' | 'error' | 'onRetry' | 'children'>) {
  const { t } = useTranslation();
  if (loading) {
    return (
      <Stack gap="sm" role="status" aria-busy="true" aria-label={t('page.loading')}>
        <Skeleton height={18} width="70%" radius="sm" />
        <Skeleton height={18} width="90%" radius="sm" />
        <Skeleton height={160} radius="lg" />
      </Stack>
    );
  }
  if (error) {
    return (
      <Alert color="red" variant="light" radius="lg" icon={<IconAlertTriangle size={20} />} title={t('page.errorTitle')}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('page.errorText')}</Text>
          {onRetry && (
            <Button size="xs" variant="white" color="red" onClick={onRetry}>
              {t('common.retry')}
            </Button>
          )}
        </Stack>
      </Alert>
    );
  }
  return children ?? null;
}
