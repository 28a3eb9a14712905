#include "cli/video_options.hpp"

#include "cli/decimal_option.hpp"

namespace physarum::app {

void add_video_quality_options(CLI::App& cmd, VideoQuality& q) {
  cmd.add_option("--crf", q.crf,
                 "Video quality, lower is better and larger: MP4 (libx264, h264_nvenc) 0..51, default 18 "
                 "(19 on h264_nvenc); WebM (VP9) 0..63, default 31")
      ->type_name("N")
      ->transform(decimal_integer());
  cmd.add_option("--video-preset", q.speed,
                 "Encoder speed: MP4 libx264 ultrafast..veryslow (default medium), h264_nvenc p1..p7 "
                 "(default p5); WebM realtime, good or best with an optional :cpu-used (default good:2)")
      ->type_name("NAME");
  cmd.add_option("--gif-width", q.gif_width,
                 "GIF width in pixels, height to keep the aspect (default 480, never wider than the image): "
                 "a GIF stores every pixel of every frame, so width weighs most")
      ->type_name("PIXELS")
      ->transform(decimal_integer());
  cmd.add_option("--gif-fps", q.gif_fps,
                 "GIF frame rate: 1, 2, 4, 5, 10, 20, 25 or 50, the rates whose frame delays are whole "
                 "hundredths of a second, so it plays evenly and as long as the video")
      ->type_name("FPS")
      ->capture_default_str()
      ->transform(decimal_integer());
  cmd.add_option("--gif-colors", q.gif_colors, "GIF palette size, 2..256; fewer weigh less")
      ->type_name("N")
      ->capture_default_str()
      ->transform(decimal_integer());
  cmd.add_option("--gif-dither", q.gif_dither,
                 "GIF dither: bayer (an ordered pattern that stays put from frame to frame, so it "
                 "compresses), none (bands), or the error diffusions floyd_steinberg, sierra2 and "
                 "sierra2_4a (finer, about 1.4x larger)")
      ->type_name("NAME")
      ->capture_default_str();
}

}  // namespace physarum::app
