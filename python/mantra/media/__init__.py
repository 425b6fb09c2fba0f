"""The media-quality pipeline (EvalVid's method, in process): synthetic content encoded with a
real codec into a ladder of representations, the per-frame trace the simulator sends, and what a
player would have shown given the simulator's per-datagram outcome, scored against the source.

    content   the synthetic source video (make_content)
    encode    one representation with PyAV (encode, codec_versions); decode: FFmpeg's decoders
    slices    a coded frame's units (H.264 slices, MPEG-4 video packets)
    packetize whole units into datagrams
    gop       capture/due times and references implied by the GOP structure
    desc      the user's description of a flow's video (MediaDesc)
    cache     encoded representations kept on disk
    ladder    prepare(desc, cache_dir) -> PreparedMedia, and its sim_block() (the sim's input)
    delivery  the simulator's per-datagram arrivals read back: what of each frame arrived in time
    player    play(prepared, sim media result, window, concealment) -> Playout (the pictures shown
              per slot; concealment "freeze", or "decoder": EvalVid's)
    quality   PSNR, SSIM and MOS of pictures
    assess    VideoQuality of a playout; evaluate() = play + assess
    figures   the PSNR trace and frame strip pictures (PNG)
"""
