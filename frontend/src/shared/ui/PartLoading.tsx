import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * What a part fetched on demand (a dialog's content, a form: `React.lazy`) shows while its script
 * downloads; `minHeight` keeps the space it will take, so nothing jumps when it arrives.
 */
export function PartLoading({ minHeight = 160 }: { minHeight?: number }) {
  const { t } = useTranslation();
  return (
    <Center mih={minHeight} data-testid="part-loading">
      <Loader size="sm" aria-label={t('page.loading')} />
    </Center>
  );
}
