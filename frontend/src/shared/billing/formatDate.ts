/** A subscription's date in the reader's language (15 March 2027 / 15 марта 2027 г.). */
export function formatBillingDate(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const moment = new Date(value);
  if (Number.isNaN(moment.getTime())) return '';
  return new Intl.DateTimeFormat(language === 'ru' ? 'ru-RU' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric' }).format(moment);
}
