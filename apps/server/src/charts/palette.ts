/** Colours of the chart chrome per theme; indicator colours come from the template. */
export interface Palette {
  background: string;
  text: string;
  mutedText: string;
  grid: string;
  axis: string;
  up: string;
  down: string;
  volumeUp: string;
  volumeDown: string;
  entry: string;
  stop: string;
  target: string;
  guide: string;
  marker: string;
}

export const PALETTES: Record<'light' | 'dark', Palette> = {
  light: {
    background: '#ffffff',
    text: '#131722',
    mutedText: '#6a6d78',
    grid: '#eef0f4',
    axis: '#c9ccd4',
    up: '#089981',
    down: '#f23645',
    volumeUp: 'rgba(8, 153, 129, 0.28)',
    volumeDown: 'rgba(242, 54, 69, 0.28)',
    entry: '#2962ff',
    stop: '#f23645',
    target: '#089981',
    guide: '#9598a1',
    marker: '#7e57c2',
  },
  dark: {
    background: '#131722',
    text: '#d1d4dc',
    mutedText: '#8a8f9c',
    grid: '#232734',
    axis: '#3a3f4d',
    up: '#26a69a',
    down: '#ef5350',
    volumeUp: 'rgba(38, 166, 154, 0.32)',
    volumeDown: 'rgba(239, 83, 80, 0.32)',
    entry: '#5b8cff',
    stop: '#ef5350',
    target: '#26a69a',
    guide: '#6a6f7c',
    marker: '#b39ddb',
  },
};
