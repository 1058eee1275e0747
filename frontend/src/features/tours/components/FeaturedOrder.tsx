import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { closestCenter, DndContext, type DragEndEvent, KeyboardSensor, type Modifier, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconGripVertical, IconStarOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { MAX_FEATURED, reorder } from '../model/manageSelection';
import classes from './ManageMedia.module.css';

/** The list only goes up and down. */
const restrictToVerticalAxisModifier: Modifier = ({ transform }) => ({ ...transform, x: 0 });

export interface FeaturedItem {
  guid: string;
  title: string;
  preview: string | null;
}

interface FeaturedOrderProps {
  items: readonly FeaturedItem[];
  onReorder: (guids: string[]) => void;
  onRemove: (guid: string) => void;
  changed: boolean;
  saving: boolean;
  onSave: () => void;
  onReset: () => void;
}

/**
 * Spec §2 manage media "featured with drag ordering": the creator's featured tours (up to 10) in
 * the order the profile shows them. Drag with the mouse or finger, or focus a handle and use
 * Space, the arrow keys and Space again.
 */
export function FeaturedOrder({ items, onReorder, onRemove, changed, saving, onSave, onReset }: FeaturedOrderProps) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const guids = items.map((item) => item.guid);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onReorder(reorder(guids, String(active.id), String(over.id)));
  };

  return (
    <Paper withBorder radius="lg" p="md" data-testid="featured-order">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <div>
            <Text fw={700}>{t('manageMedia.featuredTitle', { n: items.length, max: MAX_FEATURED })}</Text>
            <Text size="sm" c="dimmed">
              {t('manageMedia.featuredHint')}
            </Text>
          </div>
          {changed && (
            <Group gap="xs">
              <Button variant="default" radius="xl" size="xs" onClick={onReset} disabled={saving}>
                {t('manageMedia.featuredReset')}
              </Button>
              <Button radius="xl" size="xs" onClick={onSave} loading={saving} data-testid="save-featured-order">
                {t('manageMedia.featuredSave')}
              </Button>
            </Group>
          )}
        </Group>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('manageMedia.featuredEmpty')}
          </Text>
        ) : (
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} modifiers={[restrictToVerticalAxisModifier]}>
            <SortableContext items={guids} strategy={verticalListSortingStrategy}>
              <ol className={classes.featuredList}>
                {items.map((item, index) => (
                  <SortableFeatured key={item.guid} item={item} position={index + 1} onRemove={() => onRemove(item.guid)} />
                ))}
              </ol>
            </SortableContext>
          </DndContext>
        )}
      </Stack>
    </Paper>
  );
}

function SortableFeatured({ item, position, onRemove }: { item: FeaturedItem; position: number; onRemove: () => void }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.guid });
  return (
    <li
      ref={setNodeRef}
      className={classes.featuredItem}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-dragging={isDragging || undefined}
      data-guid={item.guid}
    >
      <ActionIcon
        ref={setActivatorNodeRef}
        variant="subtle"
        color="gray"
        className={classes.handle}
        aria-label={t('manageMedia.dragHandle', { title: item.title })}
        {...attributes}
        {...listeners}
      >
        <IconGripVertical size={18} />
      </ActionIcon>
      <Text fw={700} c="dimmed" w={22} ta="right" size="sm">
        {position}
      </Text>
      <div className={classes.featuredThumb}>{item.preview && <img src={item.preview} alt="" />}</div>
      <Text size="sm" fw={600} lineClamp={1} flex={1}>
        {item.title}
      </Text>
      <Tooltip label={t('manageMedia.unfeature')} withArrow>
        <ActionIcon variant="subtle" color="gray" onClick={onRemove} aria-label={t('manageMedia.unfeature')}>
          <IconStarOff size={16} />
        </ActionIcon>
      </Tooltip>
    </li>
  );
}
