import { render } from 'preact';
import '@/components/theme.css';
import { localizePage } from '@/lib/i18n';
import { App } from '../popup/App';

// The side panel (Chrome `side_panel`, Firefox `sidebar_action`): the popup's views, open for as long as the user
// likes; the tracked list follows the worker's change messages as in the popup.
localizePage(document, 'extName');
render(<App layout="panel" />, document.getElementById('app')!);
