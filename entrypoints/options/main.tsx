import { render } from 'preact';
import '@/components/theme.css';
import { localizePage } from '@/lib/i18n';
import { Options } from './Options';

localizePage(document, 'optionsTitle');
render(<Options />, document.getElementById('app')!);
