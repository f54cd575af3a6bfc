import { Image, Modal } from '@mantine/core';

/**
 * An attachment enlarged over the page. It closes by its button, by a click on the background
 * and by Escape (the modal's own behaviour, kept on purpose).
 */
export function ImageOverlay({
  src,
  alt,
  onClose,
}: {
  src: string | null;
  alt: string;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={!!src}
      onClose={onClose}
      size="auto"
      centered
      title={alt}
      closeOnClickOutside
      closeOnEscape
      closeButtonProps={{ 'aria-label': 'Close image' }}
      overlayProps={{ backgroundOpacity: 0.7, blur: 2 }}
    >
      {src && <Image src={src} alt={alt} maw="90vw" mah="80vh" fit="contain" />}
    </Modal>
  );
}
