# Writes a geographic DEM from matplotlib's sample data (an .npz of int16 elevations on a
# 3 arc-second grid) as a raw ESRI .bil with its .hdr, in metres on a local grid, for
# gdal_translate to turn into a GeoTIFF. Run with Debian's /usr/bin/python3 (python3-numpy).
# Usage: dem_to_ehdr.py DEM.npz OUT_BASENAME  -> prints "width height dx_m dz_m"
import math
import sys

import numpy as np

src, out = sys.argv[1], sys.argv[2]
dem = np.load(src)
z = np.asarray(dem["elevation"], dtype="<i2")
rows, cols = z.shape
# Metres per degree on the WGS84 ellipsoid at the tile's middle latitude.
lat = math.radians((float(dem["ymin"]) + float(dem["ymax"])) / 2.0)
per_deg_lat = 111132.954 - 559.822 * math.cos(2 * lat) + 1.175 * math.cos(4 * lat)
per_deg_lon = 111412.84 * math.cos(lat) - 93.5 * math.cos(3 * lat) + 0.118 * math.cos(5 * lat)
dx = float(dem["dx"]) * per_deg_lon
dy = float(dem["dy"]) * per_deg_lat
z.tofile(out + ".bil")
with open(out + ".hdr", "w") as h:
    h.write(f"BYTEORDER I\nLAYOUT BIL\nNROWS {rows}\nNCOLS {cols}\nNBANDS 1\nNBITS 16\nPIXELTYPE SIGNEDINT\n")
    # Pixel centres: the first at (dx/2, -dy/2), rows going south.
    h.write(f"ULXMAP {dx / 2:.6f}\nULYMAP {-dy / 2:.6f}\nXDIM {dx:.6f}\nYDIM {dy:.6f}\n")
print(cols, rows, f"{dx:.4f}", f"{dy:.4f}")
