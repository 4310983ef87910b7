import { render } from 'preact';
import '@/components/theme.css';
import { Options } from './Options';

render(<Options />, document.getElementById('app')!);
