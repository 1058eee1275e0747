import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import { vendorsQueryOptions } from '../../../shared/dictionaries/queries';
import { FormDialog } from '../../../shared/ui/FormDialog';
import { type CrawlerConfiguration, useSaveConfiguration } from '../api/crawlerApi';
import { CRAWL_LIMITS, type ConfigurationForm, formFieldOf, formOf, formProblems, payloadOf } from '../model/crawler';

interface CrawlerConfigDialogProps {
  opened: boolean;
  /** The configuration to change; null: a new one. */
  configuration: CrawlerConfiguration | null;
  onClose: () => void;
}

/** Add or change a crawler configuration: the provider, where to start, how politely and how far to crawl. */
export function CrawlerConfigDialog({ opened, configuration, onClose }: CrawlerConfigDialogProps) {
  const { t } = useTranslation();
  return (
    <FormDialog opened={opened} onClose={onClose} title={configuration ? t('crawler.form.editTitle') : t('crawler.form.addTitle')} size="lg">
      {/* Mounted per opening: every opening starts from the configuration as saved. */}
      {opened && <ConfigForm key={configuration?.id ?? 'new'} configuration={configuration} onDone={onClose} />}
    </FormDialog>
  );
}

function ConfigForm({ configuration, onDone }: { configuration: CrawlerConfiguration | null; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const vendors = useQuery(vendorsQueryOptions());
  const save = useSaveConfiguration();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<ConfigurationForm>({
    mode: 'controlled',
    initialValues: formOf(configuration),
    validate: (values) =>
      Object.fromEntries(
        Object.entries(formProblems(values)).map(([field, key]) => [field, t(`crawler.form.problems.${key}`, { max: problemMax(key) })]),
      ),
  });
  const vendor = vendors.data?.find((item) => String(item.vendor_id) === form.values.vendorId);

  const submit = form.onSubmit((values) => {
    setProblem(null);
    save.mutate(payloadOf(values, configuration?.id ?? null), {
      onSuccess: (saved) => {
        notifications.show({ color: 'teal', message: t('crawler.form.saved', { name: saved.name }) });
        onDone();
      },
      onError: (error) => {
        const fields = fieldErrors(error);
        let placed = false;
        for (const [field, message] of Object.entries(fields)) {
          const target = formFieldOf(field);
          if (target) {
            form.setFieldError(target, message);
            placed = true;
          }
        }
        if (!placed) setProblem(errorMessage(error, t('crawler.actionFailed')));
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate data-testid="crawler-form">
      <Stack gap="md">
        {problem && (
          <Alert color="red" variant="light" radius="md" data-testid="crawler-form-problem">
            {problem}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
          <TextInput label={t('crawler.form.name')} placeholder={t('crawler.form.namePlaceholder')} withAsterisk maxLength={200} data-autofocus data-testid="crawler-name" {...form.getInputProps('name')} />
          <Select
            label={t('crawler.form.provider')}
            placeholder={vendors.isPending ? t('page.loading') : t('crawler.form.choose')}
            withAsterisk
            searchable
            data={(vendors.data ?? []).map((item) => ({ value: String(item.vendor_id), label: item.vendor_name }))}
            comboboxProps={{ withinPortal: true, zIndex: 300 }}
            maxDropdownHeight={260}
            error={form.errors.vendorId ?? (vendors.isError ? t('crawler.form.providersFailed') : undefined)}
            data-testid="crawler-provider"
            {...form.getInputProps('vendorId')}
          />
        </SimpleGrid>
        <Textarea
          label={t('crawler.form.startUrls')}
          description={t('crawler.form.startUrlsHint')}
          placeholder="https://provider.example/tours"
          autosize
          minRows={2}
          maxRows={6}
          data-testid="crawler-start-urls"
          {...form.getInputProps('startUrls')}
        />
        <Textarea
          label={t('crawler.form.sitemapUrls')}
          description={t('crawler.form.sitemapUrlsHint')}
          placeholder="https://provider.example/sitemap.xml"
          autosize
          minRows={2}
          maxRows={6}
          data-testid="crawler-sitemaps"
          {...form.getInputProps('sitemapUrls')}
        />
        <TextInput
          label={t('crawler.form.pattern')}
          description={vendor?.link_pattern ? t('crawler.form.patternHostHint', { pattern: vendor.link_pattern }) : t('crawler.form.patternHint')}
          placeholder={vendor?.link_pattern ?? '^https://provider\\.example/tour/'}
          maxLength={1000}
          ff="monospace"
          data-testid="crawler-pattern"
          {...form.getInputProps('tourLinkPattern')}
        />
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing="sm">
          <NumberInput
            label={t('crawler.form.rate')}
            description={t('crawler.form.rateHint')}
            min={0}
            max={CRAWL_LIMITS.maxRate}
            step={0.5}
            decimalScale={2}
            decimalSeparator={i18n.language === 'ru' ? ',' : '.'}
            data-testid="crawler-rate"
            {...form.getInputProps('rateLimit')}
          />
          <NumberInput label={t('crawler.form.concurrency')} description={t('crawler.form.concurrencyHint')} min={1} max={CRAWL_LIMITS.maxConcurrency} allowDecimal={false} {...form.getInputProps('concurrency')} />
          <NumberInput label={t('crawler.form.maxPages')} description={t('crawler.form.maxPagesHint')} min={1} max={CRAWL_LIMITS.maxPages} allowDecimal={false} thousandSeparator=" " {...form.getInputProps('maxPages')} />
          <NumberInput label={t('crawler.form.maxDepth')} description={t('crawler.form.maxDepthHint')} min={0} max={CRAWL_LIMITS.maxDepth} allowDecimal={false} {...form.getInputProps('maxDepth')} />
        </SimpleGrid>
        <TextInput
          label={t('crawler.form.schedule')}
          description={t('crawler.form.scheduleHint')}
          placeholder="0 3 * * 1"
          maxLength={100}
          ff="monospace"
          {...form.getInputProps('scheduleCron')}
        />
        <Switch label={t('crawler.form.active')} description={t('crawler.form.activeHint')} {...form.getInputProps('isActive', { type: 'checkbox' })} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" radius="xl" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" radius="xl" loading={save.isPending} data-testid="crawler-save">
            {t('crawler.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function problemMax(problem: string): number {
  if (problem === 'tooManyStartUrls') return CRAWL_LIMITS.maxStartUrls;
  if (problem === 'tooManySitemaps') return CRAWL_LIMITS.maxSitemaps;
  if (problem === 'rate') return CRAWL_LIMITS.maxRate;
  if (problem === 'concurrency') return CRAWL_LIMITS.maxConcurrency;
  if (problem === 'maxPages') return CRAWL_LIMITS.maxPages;
  return CRAWL_LIMITS.maxDepth;
}
