import {
  IconBallFootball,
  IconBed,
  IconBriefcase,
  IconBuildingArch,
  IconBuildingBank,
  IconBuildingCastle,
  IconBuildingChurch,
  IconBuildingFactory2,
  IconBuildingMonument,
  IconBuildingSkyscraper,
  IconCategory,
  IconConfetti,
  IconDrone,
  IconHome,
  IconMasksTheater,
  IconPlaneDeparture,
  IconPlanet,
  IconRipple,
  IconSchool,
  IconShoppingBag,
  IconStethoscope,
  IconToolsKitchen2,
  IconTrain,
  IconTrees,
  type Icon,
} from '@tabler/icons-react';

import type { CategoryOut } from '../../../shared/api/generated/types.gen';

/**
 * Icons of categories whose `source_image_search` is 'local': `image_search` names a Tabler icon.
 * Only the names the platform's dictionaries use are bundled (all of Tabler would weigh megabytes);
 * any other name shows the generic category icon.
 */
const LOCAL_ICONS: Record<string, Icon> = {
  home: IconHome,
  bed: IconBed,
  'building-bank': IconBuildingBank,
  trees: IconTrees,
  'building-monument': IconBuildingMonument,
  school: IconSchool,
  'tools-kitchen-2': IconToolsKitchen2,
  'shopping-bag': IconShoppingBag,
  confetti: IconConfetti,
  'building-church': IconBuildingChurch,
  'ball-football': IconBallFootball,
  'building-factory-2': IconBuildingFactory2,
  stethoscope: IconStethoscope,
  'building-arch': IconBuildingArch,
  'building-skyscraper': IconBuildingSkyscraper,
  'plane-departure': IconPlaneDeparture,
  train: IconTrain,
  'masks-theater': IconMasksTheater,
  briefcase: IconBriefcase,
  ripple: IconRipple,
  drone: IconDrone,
  'building-castle': IconBuildingCastle,
  planet: IconPlanet,
};

/** A category's icon; cloud-stored icons need a separate call and are not drawn here. */
export function CategoryIcon({ category }: { category: CategoryOut }) {
  if (category.source_image_search !== 'local' || !category.image_search) return null;
  const LocalIcon = LOCAL_ICONS[category.image_search] ?? IconCategory;
  return <LocalIcon size={16} stroke={1.7} aria-hidden="true" />;
}
