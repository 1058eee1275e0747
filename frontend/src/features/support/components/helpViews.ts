/** The help tool's screens: its menu and the screens its entries open inside the dialog. */
export type HelpView = 'menu' | 'support' | 'videos' | 'featureRequest' | 'bugReport' | 'beta';
