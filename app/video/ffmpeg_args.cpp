#include "video/ffmpeg_args.hpp"

namespace physarum::app {

namespace {

// Everything after the input: codec, container and file, per format. ffmpeg reads "-x.mp4" as an
// option and "a:b.mp4" as a protocol: files go behind its file: prefix.
std::vector<std::string> format_args(const EncodeSettings& s) {
  const std::string fps = std::to_string(s.fps);
  std::vector<std::string> a;
  const auto comment = [&] {
    if (!s.comment.empty()) a.insert(a.end(), {"-metadata", "comment=" + s.comment});
  };
  switch (s.format) {
    case VideoFormat::Mp4:
      a = h264_quality_args(s.encoder, s.policy, s.quality);
      // Fragmented MP4 with a fragment a second: a file cut short by a crash, a kill or a full disk
      // still plays up to its last whole fragment (a plain MP4 needs its index, written last).
      a.insert(a.end(), {"-r", fps, "-movflags", "+frag_keyframe+empty_moov+default_base_moof",
                         "-frag_duration", "1000000"});
      comment();
      // MP4 whatever the extension says, so the flags above always apply.
      a.insert(a.end(), {"-f", "mp4", "file:" + s.output.string()});
      break;
    case VideoFormat::Webm:
      // Constant quality (-b:v 0); WebM is Matroska, written cluster by cluster, so a file cut
      // short still plays up to its last cluster.
      a = vp9_quality_args(s.alpha, s.policy, s.quality);
      a.insert(a.end(), {"-r", fps});
      comment();
      a.insert(a.end(), {"-f", "webm", "file:" + s.output.string()});
      break;
    case VideoFormat::Gif:
      // Lossless frames first (FFV1 in Matroska: compact, and playable if we are killed); the
      // GIF's palette needs every frame, so it is made at the end (gif_pass.hpp). They are kept
      // at the GIF's rate and width already: a 1920x1080 recording would otherwise keep 16 times
      // the pixels the GIF uses (1 GB for 20 s) and read them all twice more.
      a = {"-vf",
           gif_prefilter(s.quality, s.width),
           "-c:v",
           "ffv1",
           "-pix_fmt",
           "bgr0",
           "-r",
           std::to_string(s.quality.gif_fps),
           "-f",
           "matroska",
           "file:" + s.frames_file.string()};
      break;
    case VideoFormat::PngSequence:
      a = {"-c:v", "png", "-pix_fmt", s.alpha ? "rgba" : "rgb24", "-start_number",
           "1",    "-f",  "image2",   "file:" + s.output.string()};
      break;
  }
  return a;
}

}  // namespace

std::vector<std::string> ffmpeg_recording_argv(const std::string& ffmpeg, const EncodeSettings& s) {
  std::vector<std::string> argv = {ffmpeg,
                                   "-hide_banner",
                                   "-loglevel",
                                   "error",
                                   "-nostats",
                                   "-nostdin",
                                   "-y",
                                   "-f",
                                   "rawvideo",
                                   "-pix_fmt",
                                   "rgba",
                                   "-s",
                                   std::to_string(s.width) + "x" + std::to_string(s.height),
                                   "-r",
                                   std::to_string(s.fps),
                                   "-i",
                                   "pipe:0",
                                   "-an"};
  for (const std::string& a : format_args(s)) argv.push_back(a);
  return argv;
}

}  // namespace physarum::app
