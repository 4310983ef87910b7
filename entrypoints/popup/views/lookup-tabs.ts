/**
 * The popup's lookup tabs (History, Search, Stuck funds, Routes), in one chunk of their own: loaded once the tracked
 * list is shown (or when one of them is chosen first), so that the popup opens with the Tracked tab's code only.
 */
export { HistoryTab } from './HistoryTab';
export { RoutesTab } from './RoutesTab';
export { SearchTab } from './SearchTab';
export { StuckTab } from './StuckTab';
