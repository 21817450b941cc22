# Target test images (filled in below).
