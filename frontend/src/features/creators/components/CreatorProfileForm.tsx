import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import {
  Alert,
  Button,
  FileButton,
  Group,
  Input,
  MultiSelect,
  SegmentedControl,
  Slider,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import {
  IconBrandFacebook,
  IconBrandInstagram,
  IconBrandLinkedin,
  IconBrandX,
  IconBrandYoutube,
  IconUpload,
  IconWorld,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../../../shared/layout/breakpoints';
import { ownToursQueryOptions, saveCreator, uploadCreatorLogo } from '../api/creatorSave';
import {
  type CreatorFormValues,
  type CreatorSaveOutcome,
  creatorSaveOutcome,
  DESCRIPTION_MAX,
  FEATURED_MAX,
  formValuesToPayload,
  LINK_FIELDS,
  type LinkField,
  LOGO_ACCEPT,
  LOGO_SCALE_MAX,
  LOGO_SCALE_MIN,
  logoFileProblem,
  type PayloadContext,
  validateCreatorForm,
} from '../model/creatorForm';
import { CreatorLogo } from './CreatorLogo';
import classes from './CreatorProfileForm.module.css';

type CreatorForm = UseFormReturnType<CreatorFormValues>;

const LINK_ICONS: Record<LinkField, ReactNode> = {
  website: <IconWorld size={16} aria-hidden="true" />,
  instagram: <IconBrandInstagram size={16} aria-hidden="true" />,
  twitter: <IconBrandX size={16} aria-hidden="true" />,
  youtube: <IconBrandYoutube size={16} aria-hidden="true" />,
  facebook: <IconBrandFacebook size={16} aria-hidden="true" />,
  linkedin: <IconBrandLinkedin size={16} aria-hidden="true" />,
};

interface CreatorProfileFormProps {
  mode: 'create' | 'edit';
  initial: CreatorFormValues;
  /** Whose tours can be featured. */
  userId: number;
  /** What the payload carries besides the form (the profile id, the group flag, the profile scale). */
  context?: PayloadContext;
  /** The server took it: 200 applied or 201 waits for approval. */
  onSaved: (outcome: Exclude<CreatorSaveOutcome, { kind: 'rejected' }>) => void;
  onCancel?: () => void;
}

/**
 * The creator profile form (spec §2 become creator / creator edit modal, §3, §5): the browser checks
 * the rules it can, the server the rest; a 400's reasons appear beside their fields, a 409's message
 * above the form. The logo's background and scale are previewed live beside the fields.
 */
export function CreatorProfileForm({ mode, initial, userId, context = {}, onSaved, onCancel }: CreatorProfileFormProps) {
  const { t } = useTranslation();
  const form = useForm<CreatorFormValues>({
    mode: 'controlled',
    initialValues: initial,
    validate: (values) => {
      const errors = validateCreatorForm(values);
      return Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, t(key, { max: FEATURED_MAX })]));
    },
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (values: CreatorFormValues) => {
    setSaving(true);
    setProblem(null);
    try {
      const answer = await saveCreator(mode, formValuesToPayload(values, context));
      const outcome = creatorSaveOutcome(answer.status, answer.body);
      if (outcome.kind === 'rejected') {
        form.setErrors(outcome.fields);
        const reasons = Object.values(outcome.fields);
        // A reason shown beside its field is not repeated above the form.
        const repeated = outcome.message !== null && reasons.includes(outcome.message);
        setProblem(reasons.length > 0 && (repeated || outcome.message === null) ? t('creatorForm.fixFields', { count: reasons.length }) : (outcome.message ?? t('creatorForm.failed')));
        return;
      }
      form.resetDirty();
      onSaved(outcome);
    } catch {
      setProblem(t('creatorForm.failed'));
    } finally {
      setSaving(false);
    }
  };

  const invalid = (errors: Record<string, unknown>) => {
    setProblem(t('creatorForm.fixFields', { count: Object.keys(errors).length }));
    // Keyboard and screen-reader users land on the first field to fix.
    const first = Object.keys(errors)[0];
    const marked = first ? document.querySelector<HTMLElement>(`[data-field="${first}"]`) : null;
    const target = marked?.matches('input, textarea, button') ? marked : marked?.querySelector<HTMLElement>('input, textarea, button');
    target?.focus();
  };

  return (
    <form
      onSubmit={form.onSubmit((values) => void submit(values), invalid)}
      noValidate
      className={classes.form}
      data-testid="creator-form"
      data-mode={mode}
    >
      <div className={classes.layout}>
        <Stack gap="xl" className={classes.fields}>
          {problem && (
            <Alert color="red" variant="light" radius="md" role="alert" data-testid="creator-form-problem">
              {problem}
            </Alert>
          )}
          <Section title={t('creatorForm.sections.identity')}>
            <TextInput
              label={t('creatorForm.creatorName')}
              description={t('creatorForm.creatorNameHint')}
              withAsterisk
              maxLength={100}
              data-field="creator_name"
              {...form.getInputProps('creator_name')}
              data-testid="creator-form-name"
            />
            <TextInput
              label={t('creatorForm.username')}
              description={t('creatorForm.usernameHint')}
              withAsterisk
              maxLength={25}
              autoComplete="username"
              leftSection={<Text size="sm" c="dimmed" aria-hidden="true">@</Text>}
              data-field="user_name"
              {...form.getInputProps('user_name')}
              data-testid="creator-form-username"
            />
          </Section>
          <LogoFields form={form} />
          <Section title={t('creatorForm.sections.about')}>
            <Textarea
              label={t('creatorForm.description')}
              autosize
              minRows={3}
              maxRows={10}
              maxLength={DESCRIPTION_MAX}
              description={t('creatorForm.descriptionCount', { count: form.values.description.length, max: DESCRIPTION_MAX })}
              data-field="description"
              {...form.getInputProps('description')}
              data-testid="creator-form-description"
            />
            <TagsInput
              label={t('creatorForm.services')}
              description={t('creatorForm.servicesHint')}
              placeholder={form.values.services.length === 0 ? t('creatorForm.servicesPlaceholder') : undefined}
              maxTags={20}
              clearable
              data-field="services"
              {...form.getInputProps('services')}
              data-testid="creator-form-services"
            />
            <TagsInput
              label={t('creatorForm.areaServed')}
              description={t('creatorForm.areaServedHint')}
              placeholder={form.values.area_served.length === 0 ? t('creatorForm.areaServedPlaceholder') : undefined}
              withAsterisk
              maxTags={20}
              clearable
              data-field="area_served"
              {...form.getInputProps('area_served')}
              data-testid="creator-form-area"
            />
          </Section>
          <Section title={t('creatorForm.sections.links')} hint={t('creatorForm.linksHint')}>
            <div className={classes.twoColumns}>
              {LINK_FIELDS.map((field) => (
                <TextInput
                  key={field}
                  label={t(`creatorPage.networks.${field}`)}
                  placeholder="https://"
                  type="url"
                  inputMode="url"
                  maxLength={2048}
                  leftSection={LINK_ICONS[field]}
                  data-field={field}
                  {...form.getInputProps(field)}
                  data-testid={`creator-form-${field}`}
                />
              ))}
            </div>
          </Section>
          <Section title={t('creatorForm.sections.contact')} hint={t('creatorForm.contactHint')}>
            <div className={classes.twoColumns}>
              <TextInput
                label={t('creatorForm.contactEmail')}
                type="email"
                autoComplete="email"
                maxLength={320}
                data-field="contact_email"
                {...form.getInputProps('contact_email')}
                data-testid="creator-form-email"
              />
              <TextInput
                label={t('creatorForm.phone')}
                description={t('creatorForm.phoneHint')}
                type="tel"
                inputMode="numeric"
                autoComplete="tel"
                maxLength={20}
                data-field="phone"
                {...form.getInputProps('phone')}
                data-testid="creator-form-phone"
              />
            </div>
          </Section>
          <Section title={t('creatorForm.sections.page')}>
            <Input.Wrapper label={t('creatorForm.defaultView')} description={t('creatorForm.defaultViewHint')} data-field="default_view">
              <SegmentedControl
                mt={6}
                radius="xl"
                data={[
                  { value: 'grid', label: t('creatorPage.views.grid') },
                  { value: 'map', label: t('creatorPage.views.map') },
                ]}
                {...form.getInputProps('default_view')}
                data-testid="creator-form-default-view"
              />
            </Input.Wrapper>
            <FeaturedField form={form} userId={userId} />
          </Section>
        </Stack>
        <aside className={classes.previewColumn} aria-label={t('creatorForm.previewLabel')}>
          <LivePreview values={form.values} />
        </aside>
      </div>
      <Group justify="flex-end" gap="sm" className={classes.actions}>
        {onCancel && (
          <Button variant="default" radius="xl" onClick={onCancel} disabled={saving}>
            {t('creatorForm.cancel')}
          </Button>
        )}
        <Button type="submit" radius="xl" loading={saving} data-testid="creator-form-submit">
          {mode === 'create' ? t('creatorForm.submitNew') : t('creatorForm.submitEdit')}
        </Button>
      </Group>
    </form>
  );
}

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <fieldset className={classes.section}>
      <Title order={3} component="legend" className={classes.sectionTitle}>
        {title}
      </Title>
      {hint && (
        <Text size="sm" c="dimmed" mt={-6}>
          {hint}
        </Text>
      )}
      {children}
    </fieldset>
  );
}

/** Spec §5/§9: a logo is required; its background white or black; its scale 1–30, shown divided by 10. */
function LogoFields({ form }: { form: CreatorForm }) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);

  const upload = async (file: File | null) => {
    if (!file) return;
    const problem = logoFileProblem(file);
    if (problem) {
      form.setFieldError('logo', problem === 'type' ? t('creatorForm.errors.logoType') : t('creatorForm.errors.logoSize'));
      return;
    }
    setUploading(true);
    form.clearFieldError('logo');
    try {
      form.setFieldValue('logo', await uploadCreatorLogo(file));
    } catch (error) {
      const message = error instanceof Error && error.message !== 'upload failed' ? error.message : t('creatorForm.errors.logoUpload');
      form.setFieldError('logo', message);
    } finally {
      setUploading(false);
    }
  };

  return (
    <Section title={t('creatorForm.sections.logo')} hint={t('creatorForm.logoHint')}>
      <Input.Wrapper label={t('creatorForm.logo')} withAsterisk error={form.errors.logo} data-field="logo" data-testid="creator-form-logo">
        <Group gap="md" mt={6} wrap="nowrap" align="center">
          <CreatorLogo profile={{ logo: form.values.logo || null, creator_name: form.values.creator_name, img_settings: { bgColor: form.values.bgColor, logoScale: form.values.logoScale } }} size={72} />
          <FileButton onChange={(file) => void upload(file)} accept={LOGO_ACCEPT}>
            {(props) => (
              <Button {...props} variant="light" radius="xl" size="sm" leftSection={<IconUpload size={16} aria-hidden="true" />} loading={uploading} data-testid="creator-form-logo-upload">
                {form.values.logo ? t('creatorForm.logoReplace') : t('creatorForm.logoUpload')}
              </Button>
            )}
          </FileButton>
        </Group>
      </Input.Wrapper>
      <div className={classes.twoColumns}>
        <Input.Wrapper label={t('creatorForm.background')} id="creator-logo-background">
          <SegmentedControl
            mt={6}
            fullWidth
            radius="xl"
            aria-labelledby="creator-logo-background"
            data={[
              { value: 'white', label: t('creatorForm.white') },
              { value: 'black', label: t('creatorForm.black') },
            ]}
            value={form.values.bgColor}
            onChange={(value) => form.setFieldValue('bgColor', value === 'white' ? 'white' : 'black')}
            data-testid="creator-form-background"
          />
        </Input.Wrapper>
        <Input.Wrapper label={t('creatorForm.scale', { scale: (form.values.logoScale / 10).toFixed(1) })} id="creator-logo-scale-label">
          <Slider
            mt={14}
            mb={6}
            min={LOGO_SCALE_MIN}
            max={LOGO_SCALE_MAX}
            step={1}
            label={(value) => `${(value / 10).toFixed(1)}×`}
            marks={[{ value: 5 }, { value: 10 }, { value: 20 }]}
            thumbLabel={t('creatorForm.scaleLabel')}
            value={form.values.logoScale}
            onChange={(value) => form.setFieldValue('logoScale', value)}
            data-testid="creator-form-scale"
          />
        </Input.Wrapper>
      </div>
    </Section>
  );
}

/** Up to 10 of the user's own tours (spec §6, §9), in the order picked. */
function FeaturedField({ form, userId }: { form: CreatorForm; userId: number }) {
  const { t } = useTranslation();
  const tours = useQuery(ownToursQueryOptions(userId));
  const known = new Map((tours.data ?? []).map((tour) => [tour.guid, tour.title]));
  // A featured tour the list does not hold (beyond its first page) still shows, by its id.
  const data = [
    ...(tours.data ?? []).map((tour) => ({ value: tour.guid, label: tour.title })),
    ...form.values.featured_tours.filter((guid) => !known.has(guid)).map((guid) => ({ value: guid, label: guid })),
  ];
  const count = form.values.featured_tours.length;
  return (
    <MultiSelect
      label={t('creatorForm.featured')}
      description={
        tours.isError
          ? t('creatorForm.featuredFailed')
          : tours.data?.length === 0
            ? t('creatorForm.featuredNone')
            : t('creatorForm.featuredHint', { count, max: FEATURED_MAX })
      }
      placeholder={count === 0 ? t('creatorForm.featuredPlaceholder') : undefined}
      data={data}
      searchable
      clearable
      hidePickedOptions
      maxValues={FEATURED_MAX}
      nothingFoundMessage={t('creatorForm.featuredNothing')}
      maxDropdownHeight={250}
      comboboxProps={{ zIndex: 400 }}
      disabled={tours.isPending && count === 0}
      data-field="featured_tours"
      {...form.getInputProps('featured_tours')}
      data-testid="creator-form-featured"
    />
  );
}

/** What visitors will see at the top of the page: the logo on its background at its scale, the name and handle. */
function LivePreview({ values }: { values: CreatorFormValues }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const name = values.creator_name.trim() || t('creatorForm.previewName');
  return (
    <div className={classes.preview} data-testid="creator-form-preview" data-background={values.bgColor} data-scale={values.logoScale}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" className={classes.previewLabel}>
        {t('creatorForm.preview')}
      </Text>
      <CreatorLogo profile={{ logo: values.logo || null, creator_name: name, img_settings: { bgColor: values.bgColor, logoScale: values.logoScale } }} size={mobile ? 64 : 132} />
      <div className={classes.previewText}>
        <Text fw={700} size="lg" className={classes.previewName}>
          {name}
        </Text>
        {values.user_name.trim() && (
          <Text size="sm" c="dimmed">
            @{values.user_name.trim()}
          </Text>
        )}
        {values.area_served.length > 0 && (
          <Text size="xs" c="dimmed" lineClamp={2}>
            {values.area_served.join(' · ')}
          </Text>
        )}
      </div>
    </div>
  );
}
