package main

import (
	"fmt"

	"colophon/internal/chip/crtc"
	"colophon/internal/chip/monitor"
	"colophon/internal/firmware"
	"colophon/internal/machine/cpc"
)

// The Amstrad CPCs take their places in machineKinds here: each is built
// from its own firmware, with AMSDOS as upper ROM 7 on the 664 and 6128,
// a 6845 of type 0 (spec, "What it answers": "of type 0, the first CPCs'
// type, where it is given none"), and the picture cut as --full-raster and
// --no-double ask.
func init() {
	for _, k := range machineKinds {
		model, ok := cpc.ModelNamed(k.name)
		if !ok {
			continue
		}
		k.layout = cpc.Typing
		k.boot = func(o *runOptions, roms firmware.Loader) (cliMachine, error) {
			cfg, err := cpcConfig(model, o, roms)
			if err != nil {
				return nil, err
			}
			m, err := cpc.New(cfg)
			if err != nil {
				return nil, err
			}
			m.View = monitor.View{Full: o.fullRaster, Single: o.noDouble}
			return m, nil
		}
		k.load = func(o *runOptions, roms firmware.Loader, snapshot []byte) (cliMachine, error) {
			cfg, err := cpcConfig(model, o, roms)
			if err != nil {
				return nil, err
			}
			m, err := cpc.Load(cfg, snapshot)
			if err != nil {
				return nil, err
			}
			m.View = monitor.View{Full: o.fullRaster, Single: o.noDouble}
			return m, nil
		}
	}
}

// cpcImages names each model's firmware image.
var cpcImages = map[cpc.Model]firmware.Image{
	cpc.CPC464:  firmware.CPC464,
	cpc.CPC664:  firmware.CPC664,
	cpc.CPC6128: firmware.CPC6128,
}

func cpcConfig(model cpc.Model, o *runOptions, roms firmware.Loader) (cpc.Config, error) {
	if o.disc != "" || o.saveDisc != "" {
		return cpc.Config{}, fmt.Errorf("--disc and --save-disc: the disc drive is not built yet in this build")
	}
	cfg := cpc.Config{Model: model, CRTC: crtc.HD6845S, SixtyHz: o.sixtyHz}
	f, err := roms.Load(cpcImages[model])
	if err != nil {
		return cfg, err
	}
	cfg.Firmware = f.Data
	if model.DiscInterface() {
		a, err := roms.Load(firmware.AMSDOS)
		if err != nil {
			return cfg, err
		}
		cfg.AMSDOS = a.Data
	}
	return cfg, nil
}
