import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Chip, Group, Image, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconSparkles } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import { categoriesQueryOptions, mediaTypesQueryOptions } from '../../../shared/dictionaries/queries';
import { FormDialog } from '../../../shared/ui/FormDialog';
import { type PickedUser, UserPicker } from '../../../shared/users/UserPicker';
import { type ApprovalChoices, type CrawledOutcome, type CrawledTour, suggestionQueryOptions, useApproveCrawled } from '../api/crawlerApi';

interface CrawledApproveDialogProps {
  /** The tours to publish; none: closed. */
  tours: readonly CrawledTour[];
  onClose: () => void;
  /** The approval was answered: what became of each tour, and the tours it was about. */
  onDone: (outcomes: readonly CrawledOutcome[], tours: readonly CrawledTour[]) => void;
}

/** What the last approval chose, offered again to the next one (a crawl's tours are often alike). */
interface Remembered {
  owner: PickedUser | null;
  mediaTypeId: string | null;
  thirdPartyCreator: string;
}

let remembered: Remembered = { owner: null, mediaTypeId: null, thirdPartyCreator: '' };

/**
 * Publish crawled tours: the choices a crawled page cannot make (owner, media type, category, tags,
 * the creator shown, the place) made once for every tour chosen. The classifier's category and tags
 * for the first tour's texts are offered (the Add media form's suggestion).
 */
export function CrawledApproveDialog({ tours, onClose, onDone }: CrawledApproveDialogProps) {
  const { t } = useTranslation();
  const title = tours.length === 1 ? t('crawler.approve.titleOne') : t('crawler.approve.titleMany', { count: tours.length });
  return (
    <FormDialog opened={tours.length > 0} onClose={onClose} title={title} size="lg">
      {tours.length > 0 && <ApproveForm key={tours.map((tour) => tour.id).join(',')} tours={tours} onCancel={onClose} onDone={onDone} />}
    </FormDialog>
  );
}

type Field = 'userid' | 'platform_username' | 'media_type_id' | 'category_id' | 'subcategory_id' | 'tags' | 'third_party_creator' | 'creator_website' | 'address_str';

function ApproveForm({ tours, onCancel, onDone }: { tours: readonly CrawledTour[]; onCancel: () => void; onDone: CrawledApproveDialogProps['onDone'] }) {
  const { t } = useTranslation();
  const first = tours[0];
  const mediaTypes = useQuery(mediaTypesQueryOptions());
  const categories = useQuery(categoriesQueryOptions());
  const suggestion = useQuery({ ...suggestionQueryOptions(first?.title ?? '', first?.description ?? ''), enabled: Boolean(first?.title) });
  const approve = useApproveCrawled();

  const [owner, setOwner] = useState<PickedUser | null>(remembered.owner);
  const [mediaTypeId, setMediaTypeId] = useState<string | null>(remembered.mediaTypeId);
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [subcategoryId, setSubcategoryId] = useState<string | null>(null);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [thirdPartyCreator, setThirdPartyCreator] = useState(remembered.thirdPartyCreator);
  const [creatorWebsite, setCreatorWebsite] = useState('');
  const [address, setAddress] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [suggested, setSuggested] = useState(false);

  // The suggestion fills the category and tags once, unless the admin chose already.
  useEffect(() => {
    if (suggested || !suggestion.data) return;
    setSuggested(true);
    if (categoryId === null && suggestion.data.categoryId !== null) setCategoryId(String(suggestion.data.categoryId));
    if (tagIds.length === 0) setTagIds(suggestion.data.tags.map((tag) => String(tag.id)));
  }, [suggested, suggestion.data, categoryId, tagIds.length]);

  const category = categories.data?.find((item) => String(item.id) === categoryId);
  const subcategories = category?.subcategories ?? [];
  const suggestedCategory = suggestion.data?.categoryId != null ? categories.data?.find((item) => item.id === suggestion.data?.categoryId) : undefined;

  const submit = () => {
    const missing: Partial<Record<Field, string>> = {};
    if (mediaTypeId === null) missing.media_type_id = t('crawler.approve.required');
    if (categoryId === null) missing.category_id = t('crawler.approve.required');
    setErrors(missing);
    setProblem(null);
    if (Object.keys(missing).length > 0) return;
    const choices: ApprovalChoices = {
      media_type_id: Number(mediaTypeId),
      category_id: Number(categoryId),
      subcategory_id: subcategoryId === null ? null : Number(subcategoryId),
      tags: tagIds.map((id) => ({ id: Number(id) })),
      userid: owner?.userid ?? null,
      third_party_creator: thirdPartyCreator.trim() || null,
      creator_website: creatorWebsite.trim() || null,
      address_str: address.trim() || null,
    };
    approve.mutate(
      { ids: tours.map((tour) => tour.id), choices },
      {
        onSuccess: (answer) => {
          remembered = { owner, mediaTypeId, thirdPartyCreator };
          const done = answer.data.filter((outcome) => outcome.status === 'approved').length;
          if (done > 0) notifications.show({ color: 'teal', message: t('crawler.tours.approved', { count: done }) });
          onDone(answer.data, tours);
        },
        onError: (error) => {
          const fields = fieldErrors(error);
          const known = Object.fromEntries(Object.entries(fields).map(([field, message]) => [field.split('.')[0] ?? field, message])) as Partial<Record<Field, string>>;
          setErrors(known);
          setProblem(errorMessage(error, t('crawler.actionFailed')));
        },
      },
    );
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      data-testid="crawled-approve-form"
    >
      <Stack gap="md">
        {tours.length === 1 && first ? (
          <Paper withBorder radius="md" p="sm">
            <Group gap="sm" wrap="nowrap" align="flex-start">
              {first.image && <Image src={first.image} alt="" w={120} h={80} radius="sm" fit="cover" />}
              <Stack gap={2} miw={0}>
                <Text fw={650} size="sm" lineClamp={2}>
                  {first.title}
                </Text>
                {first.description && (
                  <Text size="xs" c="dimmed" lineClamp={3}>
                    {first.description}
                  </Text>
                )}
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {first.vendor_name} · {first.link}
                </Text>
              </Stack>
            </Group>
          </Paper>
        ) : (
          <Text size="sm" c="dimmed">
            {t('crawler.approve.manyHint', { count: tours.length })}
          </Text>
        )}
        {problem && (
          <Alert color="red" variant="light" radius="md" data-testid="crawled-approve-problem">
            {problem}
          </Alert>
        )}
        <UserPicker
          initial={remembered.owner}
          onPick={setOwner}
          label={t('crawler.approve.owner')}
          description={t('crawler.approve.ownerHint')}
          placeholder={t('crawler.approve.ownerPlaceholder')}
          error={errors.platform_username ?? errors.userid}
          testId="crawled-owner"
          zIndex={300}
        />
        <Text size="xs" c="dimmed" mt={-10} data-testid="crawled-owner-is">
          {owner ? t('crawler.approve.ownerIs', { name: owner.platform_username }) : t('crawler.approve.ownerYou')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
          <Select
            label={t('crawler.approve.mediaType')}
            placeholder={t('crawler.form.choose')}
            withAsterisk
            data={(mediaTypes.data ?? []).map((item) => ({ value: String(item.id), label: item.name }))}
            value={mediaTypeId}
            onChange={setMediaTypeId}
            comboboxProps={{ withinPortal: true, zIndex: 300 }}
            error={errors.media_type_id}
            data-testid="crawled-media-type"
          />
          <Select
            label={t('crawler.approve.category')}
            placeholder={t('crawler.form.choose')}
            description={
              suggestedCategory ? (
                <span>
                  <IconSparkles size={12} style={{ verticalAlign: -1 }} aria-hidden="true" /> {t('crawler.approve.suggested', { name: suggestedCategory.name })}
                </span>
              ) : undefined
            }
            withAsterisk
            searchable
            data={(categories.data ?? []).map((item) => ({ value: String(item.id), label: item.name }))}
            value={categoryId}
            onChange={(value) => {
              setCategoryId(value);
              if (value !== categoryId) setSubcategoryId(null);
            }}
            comboboxProps={{ withinPortal: true, zIndex: 300 }}
            error={errors.category_id}
            data-testid="crawled-category"
          />
        </SimpleGrid>
        <Select
          label={t('crawler.approve.subcategory')}
          placeholder={categoryId ? t('crawler.approve.optional') : t('crawler.approve.categoryFirst')}
          data={subcategories.map((item) => ({ value: String(item.id), label: item.name }))}
          disabled={subcategories.length === 0}
          clearable
          value={subcategoryId}
          onChange={setSubcategoryId}
          comboboxProps={{ withinPortal: true, zIndex: 300 }}
          error={errors.subcategory_id}
        />
        {(suggestion.data?.tags.length ?? 0) > 0 && (
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t('crawler.approve.tags')}
            </Text>
            <Chip.Group multiple value={tagIds} onChange={setTagIds}>
              <Group gap={6}>
                {suggestion.data?.tags.map((tag) => (
                  <Chip key={tag.id} value={String(tag.id)} size="xs" radius="sm">
                    {tag.name}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            {errors.tags && (
              <Text size="xs" c="red">
                {errors.tags}
              </Text>
            )}
          </Stack>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
          <TextInput
            label={t('crawler.approve.creatorName')}
            description={t('crawler.approve.creatorNameHint')}
            placeholder={t('crawler.approve.optional')}
            maxLength={200}
            value={thirdPartyCreator}
            onChange={(event) => setThirdPartyCreator(event.currentTarget.value)}
            error={errors.third_party_creator}
          />
          <TextInput
            label={t('crawler.approve.creatorWebsite')}
            description={t('crawler.approve.creatorWebsiteHint')}
            placeholder="https://…"
            value={creatorWebsite}
            onChange={(event) => setCreatorWebsite(event.currentTarget.value)}
            error={errors.creator_website}
          />
        </SimpleGrid>
        <TextInput
          label={t('crawler.approve.address')}
          description={tours.some((tour) => tour.coordinate) ? t('crawler.approve.addressHintPlace') : t('crawler.approve.addressHint')}
          value={address}
          onChange={(event) => setAddress(event.currentTarget.value)}
          error={errors.address_str}
          data-testid="crawled-address"
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" radius="xl" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" color="teal" radius="xl" loading={approve.isPending} data-testid="crawled-approve-submit">
            {tours.length === 1 ? t('crawler.approve.submitOne') : t('crawler.approve.submitMany', { count: tours.length })}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
