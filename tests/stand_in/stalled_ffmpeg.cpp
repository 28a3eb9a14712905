// A stand-in for ffmpeg that answers the recorder's encoder probe like a real one (libx264 only)
// and then stalls: it never reads its input and ignores SIGINT and SIGTERM, as a wedged encoder
// would. The tests put it first on PATH under the name "ffmpeg" to check that nothing waits on it
// forever. Only SIGKILL ends it.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-encoders") == 0) {
      std::puts("Encoders:\n V....D libx264              libx264 H.264 / AVC / MPEG-4 AVC (codec h264)");
      return 0;
    }
  }
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_IGN);
  std::fputs("stand-in ffmpeg: stalled on purpose, reading nothing\n", stderr);
  for (;;) ::pause();
}
