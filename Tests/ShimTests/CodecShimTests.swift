import COpenH264
import COpus
import CSRTP
import CVPX
import XCTest

/// Each macro or variadic call wrapped in the codec shim headers, called once.
final class CodecShimTests: XCTestCase {
    func testOpusControlWrappers() throws {
        var error: Int32 = 0
        let encoder = try XCTUnwrap(opus_encoder_create(48_000, 2, OPUS_APPLICATION_VOIP, &error))
        defer { opus_encoder_destroy(encoder) }
        XCTAssertEqual(error, OPUS_OK)
        XCTAssertEqual(rs_opus_set_bitrate(encoder, 32_000), OPUS_OK)
        var bitrate: Int32 = 0
        XCTAssertEqual(rs_opus_get_bitrate(encoder, &bitrate), OPUS_OK)
        XCTAssertEqual(bitrate, 32_000)
        XCTAssertEqual(rs_opus_set_complexity(encoder, 5), OPUS_OK)
        XCTAssertEqual(rs_opus_set_inband_fec(encoder, 1), OPUS_OK)
        XCTAssertEqual(rs_opus_set_packet_loss_percent(encoder, 10), OPUS_OK)
        XCTAssertEqual(rs_opus_set_dtx(encoder, 0), OPUS_OK)
        var lookahead: Int32 = 0
        XCTAssertEqual(rs_opus_get_lookahead(encoder, &lookahead), OPUS_OK)
        XCTAssertGreaterThan(lookahead, 0)
        XCTAssertEqual(rs_opus_set_complexity(encoder, 99), OPUS_BAD_ARG, "out-of-range values are refused")

        let decoder = try XCTUnwrap(opus_decoder_create(48_000, 2, &error))
        defer { opus_decoder_destroy(decoder) }
        let pcm = [Int16](repeating: 0, count: 960 * 2)
        var packet = [UInt8](repeating: 0, count: 4000)
        let length = opus_encode(encoder, pcm, 960, &packet, Int32(packet.count))
        XCTAssertGreaterThan(length, 0)
        var output = [Int16](repeating: 0, count: 960 * 2)
        XCTAssertEqual(opus_decode(decoder, packet, length, &output, 960, 0), 960)
        var duration: Int32 = 0
        XCTAssertEqual(rs_opus_decoder_last_packet_duration(decoder, &duration), OPUS_OK)
        XCTAssertEqual(duration, 960, "20 ms at 48 kHz")
    }

    func testVPXInitAndControlWrappers() throws {
        var config = vpx_codec_enc_cfg_t()
        XCTAssertEqual(vpx_codec_enc_config_default(vpx_codec_vp8_cx(), &config, 0), VPX_CODEC_OK)
        config.g_w = 160
        config.g_h = 96
        var encoder = vpx_codec_ctx_t()
        XCTAssertEqual(rs_vpx_encoder_init(&encoder, vpx_codec_vp8_cx(), &config, 0), VPX_CODEC_OK)
        defer { vpx_codec_destroy(&encoder) }
        XCTAssertEqual(rs_vpx_control_int(&encoder, Int32(VP8E_SET_CPUUSED.rawValue), 8), VPX_CODEC_OK)

        var decoder = vpx_codec_ctx_t()
        XCTAssertEqual(rs_vpx_decoder_init(&decoder, vpx_codec_vp8_dx(), nil, 0), VPX_CODEC_OK)
        defer { vpx_codec_destroy(&decoder) }

        // Encode one grey frame and decode it, then ask whether it was corrupted.
        var image = vpx_image_t()
        var planes = [UInt8](repeating: 128, count: 160 * 96 * 3 / 2)
        try planes.withUnsafeMutableBufferPointer { buffer in
            XCTAssertNotNil(vpx_img_wrap(&image, VPX_IMG_FMT_I420, 160, 96, 1, buffer.baseAddress))
            XCTAssertEqual(vpx_codec_encode(&encoder, &image, 0, 1, 0, UInt(VPX_DL_REALTIME)), VPX_CODEC_OK)
            var iterator: vpx_codec_iter_t?
            let packet = try XCTUnwrap(vpx_codec_get_cx_data(&encoder, &iterator))
            XCTAssertEqual(packet.pointee.kind, VPX_CODEC_CX_FRAME_PKT)
            let frame = packet.pointee.data.frame
            XCTAssertEqual(vpx_codec_decode(&decoder, frame.buf.assumingMemoryBound(to: UInt8.self),
                                            UInt32(frame.sz), nil, 0), VPX_CODEC_OK)
        }
        var corrupted: Int32 = -1
        XCTAssertEqual(rs_vpx_control_int_pointer(&decoder, Int32(VP8D_GET_FRAME_CORRUPTED.rawValue), &corrupted), VPX_CODEC_OK)
        XCTAssertEqual(corrupted, 0)
    }

    func testOpenH264EncoderAndDecoderWrappers() throws {
        var encoder: UnsafeMutablePointer<ISVCEncoder?>?
        XCTAssertEqual(WelsCreateSVCEncoder(&encoder), 0)
        let svcEncoder = try XCTUnwrap(encoder)
        defer { WelsDestroySVCEncoder(svcEncoder) }
        var params = SEncParamExt()
        XCTAssertEqual(rs_h264_encoder_default_params(svcEncoder, &params), 0)
        params.iPicWidth = 160
        params.iPicHeight = 96
        params.iTargetBitrate = 200_000
        params.fMaxFrameRate = 30
        params.iSpatialLayerNum = 1
        params.sSpatialLayers.0.iVideoWidth = 160
        params.sSpatialLayers.0.iVideoHeight = 96
        params.sSpatialLayers.0.fFrameRate = 30
        params.sSpatialLayers.0.iSpatialBitrate = 200_000
        XCTAssertEqual(rs_h264_encoder_initialize(svcEncoder, &params), 0)
        var format = Int32(videoFormatI420.rawValue)
        XCTAssertEqual(rs_h264_encoder_set_option(svcEncoder, ENCODER_OPTION_DATAFORMAT, &format), 0)
        XCTAssertEqual(rs_h264_encoder_force_idr(svcEncoder), 0)

        var planes = [UInt8](repeating: 128, count: 160 * 96 * 3 / 2)
        var info = SFrameBSInfo()
        let result: Int32 = planes.withUnsafeMutableBufferPointer { buffer in
            var picture = SSourcePicture()
            picture.iColorFormat = Int32(videoFormatI420.rawValue)
            picture.iPicWidth = 160
            picture.iPicHeight = 96
            picture.iStride.0 = 160
            picture.iStride.1 = 80
            picture.iStride.2 = 80
            picture.pData.0 = buffer.baseAddress
            picture.pData.1 = buffer.baseAddress! + 160 * 96
            picture.pData.2 = buffer.baseAddress! + 160 * 96 * 5 / 4
            return rs_h264_encoder_encode(svcEncoder, &picture, &info)
        }
        XCTAssertEqual(result, 0)
        XCTAssertEqual(info.eFrameType, videoFrameTypeIDR)
        XCTAssertEqual(rs_h264_encoder_uninitialize(svcEncoder), 0)

        var decoder: UnsafeMutablePointer<ISVCDecoder?>?
        XCTAssertEqual(WelsCreateDecoder(&decoder), 0)
        let svcDecoder = try XCTUnwrap(decoder)
        defer { WelsDestroyDecoder(svcDecoder) }
        var decodingParams = SDecodingParam()
        decodingParams.sVideoProperty.eVideoBsType = VIDEO_BITSTREAM_AVC
        XCTAssertEqual(rs_h264_decoder_initialize(svcDecoder, &decodingParams), 0)
        var output: [UnsafeMutablePointer<UInt8>?] = [nil, nil, nil]
        var bufferInfo = SBufferInfo()
        let garbage: [UInt8] = [0, 0, 0, 1, 0x65, 0xff, 0xff]
        let state = output.withUnsafeMutableBufferPointer { planes in
            rs_h264_decoder_decode(svcDecoder, garbage, Int32(garbage.count), planes.baseAddress, &bufferInfo)
        }
        XCTAssertNotEqual(state, dsErrorFree, "an IDR slice without SPS/PPS is an error, not a crash")
        XCTAssertEqual(rs_h264_decoder_uninitialize(svcDecoder), 0)
    }

    /// libsrtp2 allows one srtp_init per process (a second call fails and breaks later
    /// srtp_create calls); the SRTP tests' oracle does it, so this only reads the version.
    func testLibSRTPIsVersionTwo() {
        XCTAssertEqual(srtp_get_version() >> 24, 2)
        XCTAssertTrue(String(cString: srtp_get_version_string()).hasPrefix("libsrtp2 2."))
    }
}
