import '../i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Button, Group, Stack } from '@mantine/core';
import { DatePickerInput, DatesProvider, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { choiceFromDays, type DayRange, PRESET_DAYS, type RangeChoice, rangeProblem } from './range';
import classes from './RangePicker.module.css';

interface RangePickerProps {
  choice: RangeChoice;
  range: DayRange;
  today: string;
  onChange: (choice: RangeChoice) => void;
}

/** The presets (7, 30, 90 days) and a calendar for any other range of at most 366 days. */
export function RangePicker({ choice, range, today, onChange }: RangePickerProps) {
  const { t } = useTranslation();
  return (
    <Group align="flex-end" gap="sm" wrap="wrap" className={classes.controls}>
      <Group gap={6} role="group" aria-label={t('statistics.presetsLabel')} className={classes.presets}>
        {PRESET_DAYS.map((days) => {
          const active = choice.kind === 'preset' && choice.days === days;
          return (
            <Button
              key={days}
              size="sm"
              variant={active ? 'filled' : 'default'}
              aria-pressed={active}
              data-testid={`range-preset-${days}`}
              aria-label={t('statistics.preset', { count: days })}
              onClick={() => onChange({ kind: 'preset', days })}
            >
              {t('statistics.days', { count: days })}
            </Button>
          );
        })}
      </Group>
      {/* Keyed by the range: a new range (a preset, the back button) starts the calendar afresh. */}
      <RangeCalendar key={`${range.from}/${range.to}`} range={range} today={today} onChange={onChange} />
    </Group>
  );
}

function RangeCalendar({ range, today, onChange }: Omit<RangePickerProps, 'choice'>) {
  const { t, i18n } = useTranslation();
  const [value, setValue] = useState<DatesRangeValue<string>>([range.from, range.to]);
  const [from, to] = value;
  const problem = from && to ? rangeProblem(from, to) : null;

  const pick = (next: DatesRangeValue<string>) => {
    setValue(next);
    const [first, last] = next;
    if (first && last && rangeProblem(first, last) === null) onChange(choiceFromDays({ from: first, to: last }, today));
  };

  return (
    <DatesProvider settings={{ locale: i18n.language, firstDayOfWeek: i18n.language === 'ru' ? 1 : 0 }}>
      <Stack gap={4} className={classes.calendar}>
        <DatePickerInput
          type="range"
          label={t('statistics.range')}
          description={t('statistics.rangeHint')}
          value={value}
          onChange={pick}
          maxDate={today}
          allowSingleDateInRange
          valueFormat="D MMM YYYY"
          leftSection={<IconCalendar size={18} aria-hidden="true" />}
          error={problem === 'tooLong' ? t('statistics.tooLong') : undefined}
          data-testid="range-picker"
          popoverProps={{ withinPortal: true }}
        />
      </Stack>
    </DatesProvider>
  );
}
