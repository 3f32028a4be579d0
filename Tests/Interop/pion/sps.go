package main

// bitReader reads the RBSP of a NAL unit (emulation prevention bytes removed) bit by
// bit, with the Exp-Golomb codes of H.264 9.1. Reading past the end sets failed.
type bitReader struct {
	data   []byte
	bit    int
	failed bool
}

// newRBSP drops the emulation prevention byte of every 00 00 03 (H.264 7.4.1).
func newRBSP(nal []byte) *bitReader {
	data := make([]byte, 0, len(nal))
	zeros := 0
	for _, b := range nal {
		if zeros >= 2 && b == 0x03 {
			zeros = 0
			continue
		}
		if b == 0 {
			zeros++
		} else {
			zeros = 0
		}
		data = append(data, b)
	}
	return &bitReader{data: data}
}

func (r *bitReader) u(bits int) int {
	value := 0
	for i := 0; i < bits; i++ {
		if r.bit >= len(r.data)*8 {
			r.failed = true
			return 0
		}
		value = value<<1 | int(r.data[r.bit/8]>>(7-uint(r.bit%8))&1)
		r.bit++
	}
	return value
}

// ue is ue(v): leading zeros, a one, then as many bits.
func (r *bitReader) ue() int {
	zeros := 0
	for r.u(1) == 0 {
		if r.failed || zeros > 31 {
			r.failed = true
			return 0
		}
		zeros++
	}
	return (1<<uint(zeros) - 1) + r.u(zeros)
}

// se is se(v), mapped from ue(v) as H.264 9.1.1 says.
func (r *bitReader) se() int {
	k := r.ue()
	if k%2 == 1 {
		return (k + 1) / 2
	}
	return -k / 2
}

// skipScalingList skips one scaling_list() of `size` entries (H.264 7.3.2.1.1.1).
func (r *bitReader) skipScalingList(size int) {
	last, next := 8, 8
	for j := 0; j < size && !r.failed; j++ {
		if next != 0 {
			next = (last + r.se() + 256) % 256
		}
		if next != 0 {
			last = next
		}
	}
}

// parseSPS reads the picture size from a sequence parameter set's RBSP (H.264 7.3.2.1.1,
// the bytes after the NAL header): macroblock counts, frame_mbs_only and the cropping
// window, in luma samples.
func parseSPS(sps []byte) (width, height int, ok bool) {
	r := newRBSP(sps)
	profile := r.u(8)
	r.u(16) // constraint flags, level_idc
	r.ue()  // seq_parameter_set_id
	chromaFormat := 1
	switch profile {
	case 100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135:
		chromaFormat = r.ue()
		if chromaFormat == 3 {
			r.u(1) // separate_colour_plane_flag
		}
		r.ue()           // bit_depth_luma_minus8
		r.ue()           // bit_depth_chroma_minus8
		r.u(1)           // qpprime_y_zero_transform_bypass_flag
		if r.u(1) == 1 { // seq_scaling_matrix_present_flag
			lists := 8
			if chromaFormat == 3 {
				lists = 12
			}
			for i := 0; i < lists; i++ {
				if r.u(1) == 1 {
					if i < 6 {
						r.skipScalingList(16)
					} else {
						r.skipScalingList(64)
					}
				}
			}
		}
	}
	r.ue()          // log2_max_frame_num_minus4
	switch r.ue() { // pic_order_cnt_type
	case 0:
		r.ue() // log2_max_pic_order_cnt_lsb_minus4
	case 1:
		r.u(1) // delta_pic_order_always_zero_flag
		r.se() // offset_for_non_ref_pic
		r.se() // offset_for_top_to_bottom_field
		cycle := r.ue()
		for i := 0; i < cycle && !r.failed; i++ {
			r.se()
		}
	}
	r.ue() // max_num_ref_frames
	r.u(1) // gaps_in_frame_num_value_allowed_flag
	widthMbs := r.ue() + 1
	heightMapUnits := r.ue() + 1
	frameMbsOnly := r.u(1)
	if frameMbsOnly == 0 {
		r.u(1) // mb_adaptive_frame_field_flag
	}
	r.u(1) // direct_8x8_inference_flag
	cropLeft, cropRight, cropTop, cropBottom := 0, 0, 0, 0
	if r.u(1) == 1 {
		cropLeft, cropRight, cropTop, cropBottom = r.ue(), r.ue(), r.ue(), r.ue()
	}
	if r.failed {
		return 0, 0, false
	}
	// Crop units (H.264 7.4.2.1.1, Table 6-1): SubWidthC and SubHeightC by chroma format.
	unitX, unitY := 1, 2-frameMbsOnly
	switch chromaFormat {
	case 1:
		unitX, unitY = 2, 2*(2-frameMbsOnly)
	case 2:
		unitX = 2
	}
	width = widthMbs*16 - unitX*(cropLeft+cropRight)
	height = (2-frameMbsOnly)*heightMapUnits*16 - unitY*(cropTop+cropBottom)
	return width, height, width > 0 && height > 0
}
